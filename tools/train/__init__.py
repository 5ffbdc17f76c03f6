"""Training: the PyTorch twin of the net, shards, the training loop and its candidates."""
