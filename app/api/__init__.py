"""Thin routers: parse, authorise, call one service function, return its result."""
