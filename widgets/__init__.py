"""Front-ends generated from calculator declarations: ipywidgets, Panel, and the local server.

Three packages: :mod:`widgets.forms` (the forms of every calculator), :mod:`widgets.server.routes` (the
server that serves them, the site and the API) and, beside its system's name, the one front-end
a system brings of its own: :mod:`widgets.army_morale` (the Army Morale tracker).

* :func:`widgets.forms.ipy.calculator_widget` — an ipywidgets form for any calculator ID;
* :func:`widgets.forms.panel_app.calculator_app` — the same as a Panel app;
* :func:`widgets.server.routes.serve` — the built site plus every calculator live, offline.

Nothing here is written per calculator: forms come from the input declarations, result views
from the output declarations, rule texts from the registry. A system declares its special apps
(:class:`rulesbook.registry.App`: name, title, and the factories here that build them, as
``"module:function"``), served at ``/app/<name>``.
"""
