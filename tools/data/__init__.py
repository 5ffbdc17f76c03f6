"""Labels: landing the labeller's games, the data manifest, staging shards for training."""
