"""Helpers for building extensions with torchada (``torchada.utils.cpp_extension``)."""
