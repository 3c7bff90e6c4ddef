"""The modules of conformance/cts/run, the runner of the Khronos OpenCL CTS
against Lockstep (conformance/cts/README.md)."""
