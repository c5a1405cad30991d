"""The forms generated from calculator declarations: ipywidgets (:mod:`widgets.forms.ipy`), Panel
(:mod:`widgets.forms.panel_app`) and the published site's in-browser answers
(:mod:`widgets.forms.browser`), with what they share: the "compare with" view, the live answer,
pick lists and uploads."""
