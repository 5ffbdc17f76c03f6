"""Measurement: games, ratings, SPRT, benchmarks and agreement with Stockfish."""
