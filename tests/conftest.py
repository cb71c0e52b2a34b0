import os

# Node.js 20 works for jsii but prints an end-of-life banner on every start.
os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")
