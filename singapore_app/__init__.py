"""The applications: the ``singapore-1819`` command line (:mod:`~singapore_app.cli`), the
human seat (:mod:`~singapore_app.play`) and the balance lab (:mod:`~singapore_app.study`,
:mod:`~singapore_app.balance_report`). The top layer: it may use every package below it."""
