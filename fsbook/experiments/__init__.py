"""Experiment protocols, one module per paper.

Each protocol module exposes ``main(argv=None)``, so that
``python -m fsbook.experiments <name> [--full]`` runs the paper's full
protocol with a progress bar and writes a results file under ``results/``.
"""

#: protocol name -> module (relative to this package) holding ``main``
PROTOCOLS = {
    "projection": "fsbook.experiments.projection",
    "geometry": "fsbook.experiments.geometry",
}
