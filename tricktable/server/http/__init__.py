"""The HTTP side: the app, its routes, guards, error statuses, the fast path of the person's action, the body limit and the page's files."""
