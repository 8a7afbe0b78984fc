"""Checks of what Python callers pass: wrong types and values give TypeError or
ValueError naming the argument, before anything reaches libpapi."""


def name_bytes(value, what):
    """An event or region name as the NUL-terminated bytes libpapi takes."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    if not value:
        raise ValueError("%s must not be empty" % what)
    if "\0" in value:
        raise ValueError("%s must not contain a NUL character: %r" % (what, value))
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError("%s is not encodable as UTF-8: %r (%s)" % (what, value, e)) from None


def name_list(values, what):
    """A list or tuple of names (one bare string is refused: it is not a list of names)."""
    if isinstance(values, (str, bytes)):
        raise TypeError("%s must be a list of event names, not one %s: write [%r]"
                        % (what, type(values).__name__, values))
    try:
        items = list(values)
    except TypeError:
        raise TypeError("%s must be a list of event names, not %s"
                        % (what, type(values).__name__)) from None
    for i, v in enumerate(items):
        name_bytes(v, "%s[%d]" % (what, i))
    return items
