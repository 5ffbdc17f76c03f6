"""Training on a GPU machine: staging and packing for many cores."""
