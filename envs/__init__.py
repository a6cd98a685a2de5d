"""Gymnasium layer."""
