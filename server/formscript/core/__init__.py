"""The validation core: lionagi's semantics for work forms, the ``li agent --form`` gate
and scripted responses, with no I/O beyond what is passed in and no editor imports."""
