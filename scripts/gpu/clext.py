# Every OpenCL platform's devices with CL_DEVICE_VERSION and CL_DEVICE_EXTENSIONS (ctypes, no build):
# what v50 read on the H200 to see whether NVIDIA offers queue priorities (cl_khr_priority_hints).
import ctypes
cl = ctypes.CDLL("libOpenCL.so.1")
n = ctypes.c_uint()
cl.clGetPlatformIDs(0, None, ctypes.byref(n))
plats = (ctypes.c_void_p * n.value)()
cl.clGetPlatformIDs(n.value, plats, None)
for p in plats:
    buf = ctypes.create_string_buffer(4096)
    cl.clGetPlatformInfo(ctypes.c_void_p(p), 0x0902, 4096, buf, None)
    name = buf.value.decode()
    cl.clGetPlatformInfo(ctypes.c_void_p(p), 0x0901, 4096, buf, None)
    ver = buf.value.decode()
    nd = ctypes.c_uint()
    cl.clGetDeviceIDs(ctypes.c_void_p(p), 0xFFFFFFFF, 0, None, ctypes.byref(nd))
    devs = (ctypes.c_void_p * nd.value)()
    cl.clGetDeviceIDs(ctypes.c_void_p(p), 0xFFFFFFFF, nd.value, devs, None)
    for d in devs:
        big = ctypes.create_string_buffer(65536)
        cl.clGetDeviceInfo(ctypes.c_void_p(d), 0x1030, 65536, big, None)  # CL_DEVICE_EXTENSIONS
        dv = ctypes.create_string_buffer(256)
        cl.clGetDeviceInfo(ctypes.c_void_p(d), 0x102F, 256, dv, None)  # CL_DEVICE_VERSION
        print(name, ver, dv.value.decode())
        print(" ", " ".join(sorted(big.value.decode().split())))
