"""The local server (``rulesbook serve``): its routes (:mod:`widgets.server.routes`), the names it
answers to, the JSON API's HTTP side, how sessions are built, the framework patches, the compute
pool of worker processes, and the frame every live page shares."""
