"""Training the cube net (hardware/stockyard/cubenet.py) on the test suite's generated scenes."""
