"""What the template's "paper" says and how the protocol follows it: the claim, the settings, the
version history.

The template stands for a paper that claims ridge regression predicts better than ordinary
least squares when the training sample is small and the noise large (the claim of Hoerl and
Kennard, 1970, restated).  A real protocol's ``paper.py`` holds the paper's printed numbers here,
as the paper prints them, beside the settings the protocol takes from it.
"""

#: the claim, in the words a page quotes
CLAIM = "ridge regression has a higher test R² than ordinary least squares"
#: the noise levels of the simulated data (the standard deviation of the additive noise)
NOISE_LEVELS = (0.5, 2.0)
#: training samples and features of each draw
N_SAMPLES, N_FEATURES = 30, 10
#: repetitions per noise level: the documented subsample and the full protocol
REPETITIONS = {False: 3, True: 20}
#: ridge's α grid: exact decimal literals, so a rounding difference cannot move the choice
ALPHAS = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]

#: the protocol's version; bump it whenever ``run_task``'s results change
#: 1: the first version; 2: ``alpha_index`` recorded beside ``alpha``
VERSION = "2"
