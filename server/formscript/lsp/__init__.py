"""The formscript language server: diagnostics, hover, completion, fixes, navigation, dry runs
and simulations for work-form specs, scripts, rulesets and calls transcripts."""
