"""Rewards."""
