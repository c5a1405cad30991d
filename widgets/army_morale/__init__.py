"""The Army Morale tracker's front-end, beside its system (:mod:`rulesbook.systems.army_morale`):
the served page (:mod:`widgets.army_morale.tracker`), the ipywidgets tracker and the session both
share (:mod:`widgets.army_morale.session`), the set-up form, and the games kept on the server."""
