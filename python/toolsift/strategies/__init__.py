"""One module per syntax; each exposes a ``parse_<syntax>`` function returning a ParseResult."""
