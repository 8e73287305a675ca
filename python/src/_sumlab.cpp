// _sumlab.cpp: the nanobind binding of the C API (include/sumlab/sumlab.h) behind the Python
// package sumlab: arrays arrive zero-copy through nanobind's ndarray (DLPack, buffer protocol),
// a plain PyTorch CUDA tensor on reduce()'s hot path through its own attributes (torch_direct).
// No arithmetic here: dtype, device and contiguity checks, then one C call; errors become one
// Python exception (ValueError, TypeError, NotImplementedError, MemoryError, RuntimeError).
// reduce() is sumlab.sum's whole call for NumPy and PyTorch arrays (the stream and the result's
// tensor included), so the Python wrapper is a pass-through; the other entries serve the rest.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <sumlab/sumlab.h>

#ifdef SUMLAB_PY_CUDA
#include <cuda_runtime_api.h>
#endif

namespace nb = nanobind;
using arr = nb::ndarray<nb::ro>;

namespace {

[[noreturn]] void raise(PyObject *type, const std::string &msg)
{
    PyErr_SetString(type, msg.c_str());
    throw nb::python_error();
}

// One status, one exception: EINVAL is a bad argument (ValueError), EUNSUPPORTED is a valid
// request this build or variant cannot serve (NotImplementedError), the rest are runtime failures.
void check(sumlab_status st, const sl_err &err)
{
    if (st == SUMLAB_OK) return;
    std::string msg = "sumlab: ";
    msg += err.msg[0] ? err.msg : "failed without a message";
    switch (st) {
    case SUMLAB_EINVAL: raise(PyExc_ValueError, msg);
    case SUMLAB_EUNSUPPORTED: raise(PyExc_NotImplementedError, msg);
    case SUMLAB_ENOMEM: raise(PyExc_MemoryError, msg);
    default: raise(PyExc_RuntimeError, msg);
    }
}

const char *dtype_name(sl_dtype dt)
{
    return dt == SL_F64 ? "float64" : dt == SL_F16 ? "float16" : dt == SL_BF16 ? "bfloat16" : "float32";
}

// What the C API needs of one array: its data, length, dtype and where it lives.
struct view {
    const void *data;
    uint64_t n;
    sl_dtype dt;
    bool cuda;
    int device;
};

// hint: -1, or SL_BF16 for a uint16 view of a bfloat16 array (NumPy's ml_dtypes.bfloat16, which
// DLPack cannot name): the Python layer makes that view, zero-copy.
view take(const arr &a, int hint, const char *what)
{
    view v{};
    nb::dlpack::dtype t = a.dtype();
    if (t.lanes != 1) raise(PyExc_TypeError, std::string("sumlab: ") + what + ": vector dtypes are not supported");
    if (t.code == (uint8_t)nb::dlpack::dtype_code::Float && t.bits == 32) v.dt = SL_F32;
    else if (t.code == (uint8_t)nb::dlpack::dtype_code::Float && t.bits == 64) v.dt = SL_F64;
    else if (t.code == (uint8_t)nb::dlpack::dtype_code::Float && t.bits == 16) v.dt = SL_F16;
    else if (t.code == (uint8_t)nb::dlpack::dtype_code::Bfloat && t.bits == 16) v.dt = SL_BF16;
    else if (t.code == (uint8_t)nb::dlpack::dtype_code::UInt && t.bits == 16 && hint == SL_BF16) v.dt = SL_BF16;
    else {
        static const char *codes[] = {"int", "uint", "float", "?", "bfloat", "complex", "bool"};
        std::string c = t.code < 7 ? codes[t.code] : "dlpack code " + std::to_string(t.code);
        raise(PyExc_TypeError, std::string("sumlab: ") + what + ": dtype " + c + std::to_string(t.bits) +
                                   " is not supported (float32, float64, float16 or bfloat16)");
    }
    // C-contiguous: strides (in elements) are the running products of the shape from the right;
    // axes of extent 1 (and empty arrays) carry no stride constraint. Nothing is ever copied.
    int64_t expect = 1;
    for (size_t i = a.ndim(); a.size() > 0 && i-- > 0;) {
        if (a.shape(i) != 1 && a.stride(i) != expect)
            raise(PyExc_ValueError, std::string("sumlab: ") + what +
                                        ": not C-contiguous (sumlab never copies: make it contiguous "
                                        "first, e.g. numpy.ascontiguousarray(x) or x.contiguous())");
        expect *= (int64_t)a.shape(i);
    }
    v.n = (uint64_t)a.size();
    v.data = a.data();
    int dev = a.device_type();
    if (dev == nb::device::cpu::value || dev == nb::device::cuda_host::value) v.cuda = false;
    else if (dev == nb::device::cuda::value || dev == nb::device::cuda_managed::value) v.cuda = true;
    else raise(PyExc_TypeError, std::string("sumlab: ") + what + ": DLPack device type " + std::to_string(dev) +
                                    " is not supported (CPU or CUDA)");
    v.device = a.device_id();
    return v;
}

// x and y of one dtype on one device; same_place: of one length too.
void same_kind(const view &x, const view &y)
{
    if (x.dt != y.dt) raise(PyExc_TypeError, std::string("sumlab: x is ") + dtype_name(x.dt) + " but y is " + dtype_name(y.dt));
    if (x.cuda != y.cuda || x.device != y.device) raise(PyExc_ValueError, "sumlab: x and y live on different devices");
}

void same_place(const view &x, const view &y)
{
    same_kind(x, y);
    if (x.n != y.n)
        raise(PyExc_ValueError, "sumlab: x has " + std::to_string(x.n) + " values but y has " + std::to_string(y.n));
}

// x and, for a two-input operation, y (None otherwise): same dtype, length and device.
struct pair {
    view x{}, y{};
    arr y_arr;
    bool has_y = false;
    // one_length: y of x's length (the one-array calls); else only of its dtype and device
    pair(const arr &x_arr, int hint, nb::handle y_obj, int y_hint, bool one_length = true)
    {
        x = take(x_arr, hint, "x");
        if (y_obj.is_none()) return;
        if (!nb::try_cast<arr>(y_obj, y_arr, false))
            raise(PyExc_TypeError, "sumlab: y cannot be read zero-copy as an array");
        has_y = true;
        y = take(y_arr, y_hint, "y");
        if (one_length) same_place(x, y);
        else same_kind(x, y);
    }
    const void *y_data() const { return has_y ? y.data : nullptr; }
};

// Rows: x of rows of n values and, for a two-input operation, y either of x's size (row i with
// row i: y_stride n) or of one row's n values (with every row: y_stride 0).
struct rows_pair : pair {
    uint64_t y_stride = 0;
    rows_pair(const arr &x_arr, int hint, uint64_t n, nb::handle y_obj, int y_hint)
        : pair(x_arr, hint, y_obj, y_hint, false)
    {
        if (n == 0 || x.n % n) raise(PyExc_ValueError, "sumlab: the rows' length does not divide the array");
        if (!has_y) return;
        if (y.n != x.n && y.n != n)
            raise(PyExc_ValueError, "sumlab: y has " + std::to_string(y.n) + " values: x's " + std::to_string(x.n) +
                                        " (row by row) or one row's " + std::to_string(n));
        y_stride = y.n == x.n ? n : 0;
    }
};

// Makes x's device current for the call (the C API runs on the current device), restores after.
struct device_guard {
    int prev = -1;
    explicit device_guard(const view &v)
    {
#ifdef SUMLAB_PY_CUDA
        if (v.cuda && cudaGetDevice(&prev) == cudaSuccess && prev != v.device) {
            if (cudaSetDevice(v.device) != cudaSuccess) {
                prev = -1;
                raise(PyExc_RuntimeError, "sumlab: cannot make CUDA device " + std::to_string(v.device) + " current");
            }
        } else {
            prev = -1;
        }
#else
        (void)v;
#endif
    }
    ~device_guard()
    {
#ifdef SUMLAB_PY_CUDA
        if (prev >= 0) cudaSetDevice(prev);
#endif
    }
};

nb::dict variant_dict(const sumlab_variant_info &v)
{
    nb::dict d;
    d["name"] = v.name;
    d["op"] = v.op;
    d["family"] = v.family;
    d["determinism"] = v.determinism;
    d["description"] = v.description;
    nb::list dts;
    for (int dt = 0; dt < SL_NDTYPES; dt++)
        if (v.dtypes & SL_DTYPE_MASK((sl_dtype)dt)) dts.append(dtype_name((sl_dtype)dt));
    d["dtypes"] = dts;
    d["max_n"] = v.max_n;
    d["has_cpu"] = (bool)v.has_cpu;
    d["has_gpu"] = (bool)v.has_gpu;
    d["has_state"] = (bool)v.has_state;
    return d;
}

// ---- the hot path: sumlab.sum / sumlab.reduce in one call ------------------------------------
// An array's framework, from its type (cached per type: one pointer compare per call after the
// first). NumPy arrays and other producers of host arrays (FW_OTHER), and PyTorch tensors on CPU
// or CUDA, are served here whole. FW_PY goes back to the package's Python path
// (python/sumlab/_arrays.py), which answers for it: CuPy and JAX arrays, NumPy's masked arrays,
// NumPy scalars and objects that are no array by the package's rules (for its message), and
// whatever nanobind cannot read.
enum framework { FW_OTHER, FW_NUMPY, FW_TORCH, FW_PY };

struct type_entry {
    nb::object type;
    framework fw;
};
// Guarded by the GIL; never destroyed (its references would be dropped after the interpreter's end).
std::vector<type_entry> &g_types = *new std::vector<type_entry>();

// Whether t is a subclass of module.cls, where the module is imported already (else it is none:
// nothing is imported here).
bool is_subclass_of_loaded(PyObject *t, const char *module, const char *cls)
{
    nb::object mods = nb::module_::import_("sys").attr("modules");
    nb::object mod = nb::borrow(PyDict_GetItemString(mods.ptr(), module));
    if (!mod.is_valid() || mod.is_none() || !nb::hasattr(mod, cls)) return false;
    int r = PyObject_IsSubclass(t, mod.attr(cls).ptr());
    if (r < 0) PyErr_Clear();
    return r == 1;
}

// A subclass of torch.Tensor defined elsewhere.
bool is_torch_tensor_type(PyObject *t) { return is_subclass_of_loaded(t, "torch", "Tensor"); }

// A subclass of numpy.ma.MaskedArray, whose masked values the buffer still holds: the package's
// Python path answers for it.
bool is_masked_array_type(PyObject *t) { return is_subclass_of_loaded(t, "numpy.ma", "MaskedArray"); }

framework framework_of(nb::handle x)
{
    PyObject *t = (PyObject *)Py_TYPE(x.ptr());
    for (const type_entry &e : g_types)
        if (e.type.ptr() == t) return e.fw;
    framework fw = FW_PY;
    nb::object mod = nb::getattr(nb::handle(t), "__module__", nb::none());
    std::string m = nb::isinstance<nb::str>(mod) ? nb::cast<std::string>(mod) : std::string();
    auto starts = [&m](const char *p) { return m.compare(0, strlen(p), p) == 0; };
    if (starts("torch") || is_torch_tensor_type(t)) {
        fw = FW_TORCH;
    } else if (starts("cupy") || starts("jax")) {
        fw = FW_PY;
    } else if (PyObject_IsSubclass(t, nb::module_::import_("numpy").attr("ndarray").ptr()) == 1) {
        fw = is_masked_array_type(t) ? FW_PY : FW_NUMPY;  // ndarray and its subclasses (memmap)
    } else if (!starts("numpy") &&
               (nb::hasattr(nb::handle(t), "__dlpack__") || nb::hasattr(nb::handle(t), "__array_interface__"))) {
        fw = FW_OTHER;                                    // another producer of host arrays
    }
    PyErr_Clear();
    if (g_types.size() < 64) g_types.push_back({nb::borrow(t), fw});
    return fw;
}

// What a CUDA tensor of PyTorch needs: its 0-d result (torch.Tensor.new_empty for a plain
// tensor, torch.empty otherwise), the raw current stream of a device, and the torch.device of each
// CUDA device (made once); for reading a plain tensor without DLPack (torch_direct): the type
// torch.Tensor, torch.strided, the four dtypes in sl_dtype order and the attribute names, interned.
// Looked up on first use.
struct torch_api {
    bool ready = false, usable = false, direct = false;
    nb::object empty, new_empty, raw_stream, device_type, tensor_type, strided, shape0;
    nb::object dtypes[SL_NDTYPES];
    nb::object a_is_cuda, a_layout, a_dtype, a_is_contiguous, a_numel, a_data_ptr, a_get_device;
    std::vector<nb::object> devices;
};
torch_api &g_torch = *new torch_api();   // never destroyed, as g_types

bool torch_ready()
{
    if (!g_torch.ready) {
        g_torch.ready = true;
        try {
            nb::module_ torch = nb::module_::import_("torch");
            g_torch.empty = torch.attr("empty");
            g_torch.device_type = torch.attr("device");
            g_torch.raw_stream = nb::getattr(torch.attr("_C"), "_cuda_getCurrentRawStream", nb::none());
            g_torch.usable = !g_torch.raw_stream.is_none();
            g_torch.shape0 = nb::make_tuple();
            g_torch.a_dtype = nb::steal(PyUnicode_InternFromString("dtype"));
            g_torch.a_data_ptr = nb::steal(PyUnicode_InternFromString("data_ptr"));
            if (!g_torch.a_dtype.is_valid() || !g_torch.a_data_ptr.is_valid()) throw nb::python_error();
        } catch (nb::python_error &) {
            g_torch.usable = false;   // the Python path answers
        }
        // the direct read (torch_direct): CUDA, not ROCm (whose tensors DLPack names another device
        // type); without it every tensor goes through DLPack
        if (g_torch.usable) try {
            nb::module_ torch = nb::module_::import_("torch");
            g_torch.tensor_type = torch.attr("Tensor");
            g_torch.new_empty = g_torch.tensor_type.attr("new_empty");
            g_torch.strided = torch.attr("strided");
            static const char *const dts[SL_NDTYPES] = {"float32", "float64", "float16", "bfloat16"};
            static_assert(SL_F32 == 0 && SL_F64 == 1 && SL_F16 == 2 && SL_BF16 == 3 && SL_NDTYPES == 4,
                          "sl_dtype order");
            for (int i = 0; i < SL_NDTYPES; i++) g_torch.dtypes[i] = torch.attr(dts[i]);
            auto name = [](const char *a) { return nb::steal(PyUnicode_InternFromString(a)); };
            g_torch.a_is_cuda = name("is_cuda");
            g_torch.a_layout = name("layout");
            g_torch.a_is_contiguous = name("is_contiguous");
            g_torch.a_numel = name("numel");
            g_torch.a_get_device = name("get_device");
            for (const nb::object &o : {g_torch.a_is_cuda, g_torch.a_layout, g_torch.a_is_contiguous,
                                        g_torch.a_numel, g_torch.a_get_device})
                if (!o.is_valid()) throw nb::python_error();
            nb::object hip = nb::getattr(nb::getattr(torch, "version", nb::none()), "hip", nb::none());
            g_torch.direct = hip.is_none();
        } catch (std::exception &) {   // nb::python_error included: its error is dropped with it
            g_torch.direct = false;
        }
    }
    return g_torch.usable;
}

// A plain CUDA tensor (type torch.Tensor itself, strided, C-contiguous, float32/float64/float16/
// bfloat16) read from its own attributes: what its DLPack export holds (data_ptr() includes the
// storage offset, numel(), the device index), the same checks passed, without the capsule's cost;
// a tensor that requires grad is read as it is (the same storage as its detached view). False
// for every other tensor: the DLPack path reads it (or raises its error).
bool torch_direct(nb::handle x, view &v)
{
    if (!g_torch.direct || (PyObject *)Py_TYPE(x.ptr()) != g_torch.tensor_type.ptr()) return false;
    try {
        if (!x.attr(g_torch.a_is_cuda).is(nb::handle(Py_True))) return false;
        if (!x.attr(g_torch.a_layout).is(g_torch.strided)) return false;
        nb::object dt = x.attr(g_torch.a_dtype);
        int code = -1;
        for (int i = 0; i < SL_NDTYPES && code < 0; i++)
            if (dt.is(g_torch.dtypes[i])) code = i;
        if (code < 0) return false;
        if (!x.attr(g_torch.a_is_contiguous)().is(nb::handle(Py_True))) return false;
        const long long n = nb::cast<long long>(x.attr(g_torch.a_numel)());
        const int device = nb::cast<int>(x.attr(g_torch.a_get_device)());
        if (n < 0 || device < 0) return false;
        v.data = (const void *)nb::cast<uintptr_t>(x.attr(g_torch.a_data_ptr)());
        v.n = (uint64_t)n;
        v.dt = (sl_dtype)code;
        v.cuda = true;
        v.device = device;
        return true;
    } catch (std::exception &) {   // an attribute that raised: its error dropped, DLPack answers
        return false;
    }
}

nb::handle torch_device(int index)
{
    if (index < 0 || index > 4096) raise(PyExc_ValueError, "sumlab: bad CUDA device index " + std::to_string(index));
    if ((size_t)index >= g_torch.devices.size()) g_torch.devices.resize((size_t)index + 1);
    nb::object &d = g_torch.devices[(size_t)index];
    if (!d.is_valid()) d = g_torch.device_type("cuda", index);
    return d;
}

// x read zero-copy (nb::ndarray, DLPack or the buffer protocol) with its dtype hint; false when
// nanobind cannot read it. A NumPy array of ml_dtypes.bfloat16 (no DLPack code) is read as its
// uint16 view (in the machine's byte order only: swapped bytes go to the Python path, which
// refuses them), a tensor that requires grad as its detached view: the same buffer either way.
bool read_array(nb::handle x, framework fw, arr &out, int &hint, nb::object &keep)
{
    hint = -1;
    if (nb::try_cast<arr>(x, out, false)) return true;
    if (fw == FW_TORCH) {   // DLPack refuses a tensor that requires grad: its detached view, same storage
        keep = x.attr("detach")();
        return nb::try_cast<arr>(keep, out, false);
    }
    if (fw != FW_NUMPY) return false;
    nb::object dt = nb::getattr(x, "dtype", nb::none());
    if (dt.is_none() || !nb::isinstance<nb::str>(nb::getattr(dt, "name", nb::none()))) return false;
    if (nb::cast<std::string>(dt.attr("name")) != "bfloat16" || nb::cast<int>(dt.attr("itemsize")) != 2) return false;
    if (!nb::getattr(dt, "isnative", nb::bool_(false)).is(nb::handle(Py_True))) return false;
    keep = x.attr("view")(nb::module_::import_("numpy").attr("uint16"));
    hint = SL_BF16;
    return nb::try_cast<arr>(keep, out, false);
}

const char *text_arg(nb::handle h, const char *what)
{
    const char *s = PyUnicode_Check(h.ptr()) ? PyUnicode_AsUTF8(h.ptr()) : nullptr;
    if (!s) {
        PyErr_Clear();
        raise(PyExc_TypeError, std::string("sumlab: ") + what + " must be a str, not " +
                                   Py_TYPE(h.ptr())->tp_name);
    }
    return s;
}

// ddof (var/std) as the library's parameters; a negative or too large one is a ValueError.
sumlab_params params_of(long long ddof)
{
    if (ddof < 0 || ddof > 1000000) raise(PyExc_ValueError, "sumlab: ddof must be in [0, 1000000], not " + std::to_string(ddof));
    sumlab_params p = sumlab_params_default();
    p.ddof = (uint32_t)ddof;
    return p;
}

// One input of reduce_any: a plain CUDA tensor read directly (torch_direct), else read zero-copy
// (read_array, with its dtype hint) and checked (take). False: the package's Python path serves it.
bool input_view(nb::handle a, framework fw, const char *what, view &v, arr &held, nb::object &keep)
{
    if (fw == FW_TORCH && torch_ready() && torch_direct(a, v)) return true;
    int hint = -1;
    if (!read_array(a, fw, held, hint, keep)) return false;
    v = take(held, hint, what);
    return true;
}

// op's variant over x (and y): a Python float for a host array (the twin or the exact reference);
// for a CUDA tensor of PyTorch a 0-d tensor of its dtype on its device (x.new_empty(()) for a
// plain tensor, torch.empty for a subclass), written by the kernel enqueued on torch's current
// stream of that device, never copied to the host. NotImplemented: the package's Python path
// serves this input (CuPy, JAX, or an object nanobind cannot read: its path raises the precise
// error).
nb::object reduce_any(nb::handle x, nb::handle op_name, nb::handle variant_name, nb::handle y, long long ddof)
{
    const char *op = text_arg(op_name, "op"), *variant = text_arg(variant_name, "variant");
    const sumlab_params prm = params_of(ddof);
    framework fw = framework_of(x);
    if (fw == FW_PY) return nb::borrow(Py_NotImplemented);
    arr xa, ya;
    nb::object keep_x, keep_y;
    view xv{}, yv{};
    if (!input_view(x, fw, "x", xv, xa, keep_x)) return nb::borrow(Py_NotImplemented);
    const void *y_data = nullptr;
    if (!y.is_none()) {
        framework fy = framework_of(y);
        if (fy != fw || fy == FW_PY || !input_view(y, fy, "y", yv, ya, keep_y)) return nb::borrow(Py_NotImplemented);
        same_place(xv, yv);
        y_data = yv.data;
    }
    sl_err err{};
    sumlab_status st;
    if (!xv.cuda) {
        double r = 0;
        if (xv.n > ((uint64_t)1 << 12)) {   // a short twin costs less than releasing the GIL
            nb::gil_scoped_release nogil;
            st = sumlab_reduce_host_ex(op, &prm, variant, xv.data, y_data, xv.n, xv.dt, nullptr, &r, &err);
        } else {
            st = sumlab_reduce_host_ex(op, &prm, variant, xv.data, y_data, xv.n, xv.dt, nullptr, &r, &err);
        }
        check(st, err);
        return nb::float_(r);
    }
    if (fw != FW_TORCH || !torch_ready()) return nb::borrow(Py_NotImplemented);
    // the result first (torch's caching allocator, on its current stream), then that stream; a
    // plain tensor's new_empty (x's dtype and device, no requires_grad) costs less than torch.empty
    nb::object out = g_torch.direct && (PyObject *)Py_TYPE(x.ptr()) == g_torch.tensor_type.ptr()
                         ? g_torch.new_empty(x, g_torch.shape0)
                         : g_torch.empty(g_torch.shape0, nb::arg("dtype") = x.attr(g_torch.a_dtype),
                                         nb::arg("device") = torch_device(xv.device));
    uintptr_t d_result = nb::cast<uintptr_t>(out.attr(g_torch.a_data_ptr)());
    uintptr_t stream = nb::cast<uintptr_t>(g_torch.raw_stream(xv.device));
    if (!d_result) raise(PyExc_RuntimeError, "sumlab: torch gave no device memory for the result");
    {
        device_guard g(xv);
        nb::gil_scoped_release nogil;
        st = sumlab_reduce_device_ex(op, &prm, variant, xv.data, y_data, xv.n, xv.dt, nullptr, (void *)d_result,
                                     (void *)stream, &err);
    }
    check(st, err);
    return out;
}

// A mergeable state (sumlab_state), owned. The C state is not thread-safe (sumlab.h) and add()
// runs without the GIL, so every call that reads or changes s holds mu (add() takes it after
// releasing the GIL, the others with the GIL held: no add() waits for the GIL while holding mu).
struct state {
    sumlab_state *s = nullptr;
    int dt = -1; // the state's dtype (sumlab_state_info for a loaded one)
    mutable std::mutex mu;
    state() = default;
    state(const state &) = delete;
    state &operator=(const state &) = delete;
    ~state() { sumlab_state_free(s); }
};

} // namespace

NB_MODULE(_sumlab, m)
{
    m.doc() = "sumlab's C API (libsumlab), bound with nanobind; use the package sumlab";
    m.attr("SL_F32") = (int)SL_F32;
    m.attr("SL_F64") = (int)SL_F64;
    m.attr("SL_F16") = (int)SL_F16;
    m.attr("SL_BF16") = (int)SL_BF16;
#ifdef SUMLAB_PY_CUDA
    m.attr("built_with_cuda") = true;
#else
    m.attr("built_with_cuda") = false;
#endif

    m.def("version", []() { return std::string(sumlab_version()); });

    m.def("ops", []() {
        nb::list out;
        for (size_t i = 0, n = sumlab_op_count(); i < n; i++) {
            sumlab_op_info o{};
            sl_err err{};
            check(sumlab_op_at(i, &o, &err), err);
            nb::dict d;
            d["name"] = o.name;
            d["inputs"] = o.inputs;
            d["exact_variant"] = o.exact_variant;
            d["description"] = o.description;
            out.append(d);
        }
        return out;
    });

    m.def("variants", []() {
        nb::list out;
        for (size_t i = 0, n = sumlab_variant_count(); i < n; i++) {
            sumlab_variant_info v{};
            sl_err err{};
            check(sumlab_variant_at(i, &v, &err), err);
            out.append(variant_dict(v));
        }
        return out;
    });

    m.def("variant", [](const std::string &name) {
        sumlab_variant_info v{};
        sl_err err{};
        check(sumlab_variant_find(name.c_str(), &v, &err), err);
        return variant_dict(v);
    });

    // The array's (data pointer, n, dtype, is_cuda, device) as the binding sees it: the zero-copy
    // tests compare the pointer with the framework's own.
    m.def("inspect", [](arr x, int hint) {
        view v = take(x, hint, "x");
        return nb::make_tuple((uintptr_t)v.data, v.n, (int)v.dt, v.cuda, v.device);
    }, nb::arg("x").noconvert(), nb::arg("hint") = -1);

    // sumlab.reduce and sumlab.sum: the whole call for NumPy (and other host arrays) and PyTorch
    // (CPU and CUDA); NotImplemented hands the input to the package's Python path.
    m.def("reduce", &reduce_any, nb::arg("x"), nb::arg("op").none(), nb::arg("variant").none(), nb::arg("y").none(),
          nb::arg("ddof") = 1);

    m.def("reduce_host",
          [](const std::string &op, const std::string &variant, arr x, int hint, nb::object y_obj, int y_hint,
             long long ddof) {
              const sumlab_params prm = params_of(ddof);
              pair p(x, hint, y_obj, y_hint);
              const view &x_v = p.x;
              if (x_v.cuda) raise(PyExc_ValueError, "sumlab: reduce_host given a CUDA array");
              double r = 0;
              sl_err err{};
              sumlab_status st;
              {
                  nb::gil_scoped_release nogil;
                  st = sumlab_reduce_host_ex(op.c_str(), &prm, variant.c_str(), x_v.data, p.y_data(),
                                             x_v.n, x_v.dt, nullptr, &r, &err);
              }
              check(st, err);
              return r;
          },
          nb::arg("op"), nb::arg("variant"), nb::arg("x").noconvert(), nb::arg("hint"), nb::arg("y").none(), nb::arg("y_hint"),
          nb::arg("ddof") = 1);

    // d_result: device memory of one value of x's dtype, allocated by the caller's framework on
    // x's device; stream: a cudaStream_t as an integer (0: the legacy default stream).
    m.def("reduce_device",
          [](const std::string &op, const std::string &variant, arr x, int hint, nb::object y_obj, int y_hint,
             uintptr_t d_result, uintptr_t stream, long long ddof) {
              const sumlab_params prm = params_of(ddof);
              pair p(x, hint, y_obj, y_hint);
              const view &x_v = p.x;
              if (!x_v.cuda) raise(PyExc_ValueError, "sumlab: reduce_device given a host array");
              if (!d_result) raise(PyExc_ValueError, "sumlab: no result buffer");
              sl_err err{};
              sumlab_status st;
              {
                  device_guard g(x_v);
                  nb::gil_scoped_release nogil;
                  st = sumlab_reduce_device_ex(op.c_str(), &prm, variant.c_str(), x_v.data, p.y_data(),
                                               x_v.n, x_v.dt, nullptr, (void *)d_result, (void *)stream, &err);
              }
              check(st, err);
          },
          nb::arg("op"), nb::arg("variant"), nb::arg("x").noconvert(), nb::arg("hint"), nb::arg("y").none(), nb::arg("y_hint"),
          nb::arg("d_result"), nb::arg("stream"), nb::arg("ddof") = 1);

    // rows: x C-contiguous with its reduced axis last, n its length (x's size a multiple of it),
    // and y for a two-input operation (None otherwise; rows_pair: x's size, row i with row i, or
    // one row of n values with every row): every row reduced (sumlab_reduce_rows_xy_host_ex), the
    // results as float64 bytes in row order.
    m.def("reduce_rows_host",
          [](const std::string &op, const std::string &variant, arr x, int hint, uint64_t n, long long ddof,
             nb::object y_obj, int y_hint) {
              const sumlab_params prm = params_of(ddof);
              rows_pair p(x, hint, n, y_obj, y_hint);
              const view &v = p.x;
              if (v.cuda) raise(PyExc_ValueError, "sumlab: reduce_rows_host given a CUDA array");
              const uint64_t rows = v.n / n;
              std::string out((size_t)rows * sizeof(double), '\0');
              sl_err err{};
              sumlab_status st;
              {
                  nb::gil_scoped_release nogil;
                  st = sumlab_reduce_rows_xy_host_ex(op.c_str(), &prm, variant.c_str(), v.data, p.y_data(), p.y_stride,
                                                     rows, n, v.dt, nullptr, (double *)&out[0], &err);
              }
              check(st, err);
              return nb::bytes(out.data(), out.size());
          },
          nb::arg("op"), nb::arg("variant"), nb::arg("x").noconvert(), nb::arg("hint"), nb::arg("n"),
          nb::arg("ddof") = 1, nb::arg("y").none() = nb::none(), nb::arg("y_hint") = -1);

    // rows on the device: d_results holds one value of x's dtype per row (the caller's framework
    // allocated it on x's device); enqueued on stream, zero-copy.
    m.def("reduce_rows_device",
          [](const std::string &op, const std::string &variant, arr x, int hint, uint64_t n, uintptr_t d_results,
             uintptr_t stream, long long ddof, nb::object y_obj, int y_hint) {
              const sumlab_params prm = params_of(ddof);
              rows_pair p(x, hint, n, y_obj, y_hint);
              const view &v = p.x;
              if (!v.cuda) raise(PyExc_ValueError, "sumlab: reduce_rows_device given a host array");
              if (!d_results) raise(PyExc_ValueError, "sumlab: no result buffer");
              sl_err err{};
              sumlab_status st;
              {
                  device_guard g(v);
                  nb::gil_scoped_release nogil;
                  st = sumlab_reduce_rows_xy_device_ex(op.c_str(), &prm, variant.c_str(), v.data, p.y_data(),
                                                       p.y_stride, v.n / n, n, v.dt, nullptr, (void *)d_results,
                                                       (void *)stream, &err);
              }
              check(st, err);
          },
          nb::arg("op"), nb::arg("variant"), nb::arg("x").noconvert(), nb::arg("hint"), nb::arg("n"),
          nb::arg("d_results"), nb::arg("stream"), nb::arg("ddof") = 1, nb::arg("y").none() = nb::none(),
          nb::arg("y_hint") = -1);

    // Waits for a stream (the JAX path, whose arrays have no stream of the caller's to order on).
    m.def("stream_synchronize", [](uintptr_t stream, int device) {
#ifdef SUMLAB_PY_CUDA
        // every call checked: a failed cudaSetDevice would synchronise another device's stream
        // and return before the kernel has finished
        int prev = -1;
        cudaError_t e = cudaGetDevice(&prev);
        if (e == cudaSuccess && prev != device) e = cudaSetDevice(device);
        if (e != cudaSuccess)
            raise(PyExc_RuntimeError, std::string("sumlab: selecting device ") + std::to_string(device) + ": " +
                                          cudaGetErrorString(e));
        {
            nb::gil_scoped_release nogil;
            e = cudaStreamSynchronize((cudaStream_t)stream);
        }
        cudaError_t back = cudaSuccess;
        if (prev != device) back = cudaSetDevice(prev);
        if (e != cudaSuccess)
            raise(PyExc_RuntimeError, std::string("sumlab: cudaStreamSynchronize: ") + cudaGetErrorString(e));
        if (back != cudaSuccess)
            raise(PyExc_RuntimeError, std::string("sumlab: restoring device ") + std::to_string(prev) + ": " +
                                          cudaGetErrorString(back));
#else
        (void)stream;
        (void)device;
        raise(PyExc_RuntimeError, "sumlab: this build has no CUDA");
#endif
    });

    m.def("judge",
          [](const std::string &op, arr x, int hint, nb::object y_obj, int y_hint, double value, int value_as,
             nb::object bound_of, long long ddof) {
              const sumlab_params prm = params_of(ddof);
              pair p(x, hint, y_obj, y_hint);
              const view &x_v = p.x;
              if (x_v.cuda)
                  raise(PyExc_ValueError, "sumlab: judge and exact read host memory (the exact reference runs "
                                          "on the CPU): pass a CPU array");
              std::string b = bound_of.is_none() ? std::string() : nb::cast<std::string>(bound_of);
              if (value_as >= SL_NDTYPES) raise(PyExc_ValueError, "sumlab: bad value_as format code");
              sumlab_judgement j{};
              sumlab_exact S{};
              sl_err err{};
              sumlab_status st;
              {
                  nb::gil_scoped_release nogil;
                  st = sumlab_judge_ex(op.c_str(), &prm, x_v.data, p.y_data(), x_v.n, x_v.dt, value,
                                       value_as < 0 ? x_v.dt : (sl_dtype)value_as,
                                       bound_of.is_none() ? nullptr : b.c_str(), &j, &S, &err);
              }
              check(st, err);
              nb::dict d;
              d["exact_sum_hex"] = S.hex;
              d["exact_sum_dec"] = S.dec;
              d["exact_sum_bits"] = S.bits;
              sumlab_exact_free(&S);
              d["exact"] = j.exact;
              d["exact_f64"] = j.exact_f64;
              d["abs_err"] = j.abs_err;
              d["rel_err"] = j.rel_err;
              d["ulps"] = j.ulps;
              d["ulps_f64"] = j.ulps_f64;
              d["cond"] = j.cond;
              d["bound_abs"] = j.bound;
              d["bound_ratio"] = j.bound_ratio;
              d["dtype"] = dtype_name(x_v.dt);
              d["n"] = x_v.n;
              return d;
          },
          nb::arg("op"), nb::arg("x").noconvert(), nb::arg("hint"), nb::arg("y").none(), nb::arg("y_hint"), nb::arg("value"),
          nb::arg("value_as"), nb::arg("bound_of").none(), nb::arg("ddof") = 1);

    m.def("exact_hex",
          [](const std::string &op, arr x, int hint, nb::object y_obj, int y_hint, long long ddof) {
              const sumlab_params prm = params_of(ddof);
              pair p(x, hint, y_obj, y_hint);
              const view &x_v = p.x;
              if (x_v.cuda)
                  raise(PyExc_ValueError, "sumlab: judge and exact read host memory (the exact reference runs "
                                          "on the CPU): pass a CPU array");
              char *hex = nullptr;
              sl_err err{};
              sumlab_status st;
              {
                  nb::gil_scoped_release nogil;
                  st = sumlab_exact_hex_ex(op.c_str(), &prm, x_v.data, p.y_data(), x_v.n, x_v.dt, &hex, &err);
              }
              check(st, err);
              std::string s(hex ? hex : "");
              sumlab_free(hex);
              return s;
          },
          nb::arg("op"), nb::arg("x").noconvert(), nb::arg("hint"), nb::arg("y").none(), nb::arg("y_hint"),
          nb::arg("ddof") = 1);

    nb::class_<state>(m, "CState")
        .def("__init__",
             [](state *self, const std::string &variant, int dt) {
                 new (self) state();
                 if (dt < 0 || dt >= SL_NDTYPES) raise(PyExc_ValueError, "sumlab: bad dtype code");
                 self->dt = dt;
                 sl_err err{};
                 check(sumlab_state_new(variant.c_str(), (sl_dtype)dt, &self->s, &err), err);
             })
        .def("add",
             [](state &self, arr x, int hint, uintptr_t stream) {
                 view v = take(x, hint, "x");
                 if (self.dt >= 0 && (int)v.dt != self.dt)
                     raise(PyExc_TypeError, std::string("sumlab: the state holds ") + dtype_name((sl_dtype)self.dt) +
                                                " values, not " + dtype_name(v.dt));
                 sl_err err{};
                 sumlab_status st;
                 if (v.cuda) {
                     device_guard g(v);
                     nb::gil_scoped_release nogil;
                     std::lock_guard<std::mutex> lk(self.mu);
                     st = sumlab_state_add_device(self.s, v.data, v.n, (void *)stream, &err);
                 } else {
                     nb::gil_scoped_release nogil;
                     std::lock_guard<std::mutex> lk(self.mu);
                     st = sumlab_state_add(self.s, v.data, v.n, &err);
                 }
                 check(st, err);
             },
             nb::arg("x").noconvert(), nb::arg("hint") = -1, nb::arg("stream") = 0)
        .def("merge",
             [](state &self, const state &other) {
                 sl_err err{};
                 sumlab_status st;
                 if (&self == &other) {
                     std::lock_guard<std::mutex> lk(self.mu);
                     st = sumlab_state_merge(self.s, other.s, &err);
                 } else {
                     std::scoped_lock lk(self.mu, other.mu);
                     st = sumlab_state_merge(self.s, other.s, &err);
                 }
                 check(st, err);
             })
        .def("to_bytes",
             [](const state &self) {
                 std::unique_lock<std::mutex> lk(self.mu);
                 size_t len = sumlab_state_size(self.s);
                 std::string buf(len, '\0');
                 sl_err err{};
                 sumlab_status st = sumlab_state_save(self.s, buf.data(), len, &err);
                 lk.unlock();
                 check(st, err);
                 return nb::bytes(buf.data(), len);
             })
        .def_static("from_bytes",
                    [](nb::bytes b) {
                        auto *st = new state();
                        sl_err err{};
                        sumlab_status rc = sumlab_state_load(b.c_str(), b.size(), &st->s, &err);
                        sl_dtype dt = SL_F32;
                        if (rc == SUMLAB_OK) rc = sumlab_state_info(st->s, nullptr, &dt, &err);
                        if (rc != SUMLAB_OK) {
                            delete st;
                            check(rc, err);
                        }
                        st->dt = (int)dt;   // the bytes name it: add() refuses another dtype
                        return st;
                    },
                    nb::rv_policy::take_ownership)
        .def_prop_ro("dtype", [](const state &self) { return self.dt; })
        .def_prop_ro("variant", [](const state &self) {
            const char *v = nullptr;
            sl_err err{};
            check(sumlab_state_info(self.s, &v, nullptr, &err), err);
            return std::string(v ? v : "");
        })
        .def("result", [](const state &self) {
            double r = 0;
            sl_err err{};
            sumlab_status st;
            {
                std::lock_guard<std::mutex> lk(self.mu);
                st = sumlab_state_result(self.s, &r, &err);
            }
            check(st, err);
            return r;
        })
        // the integer-limb form (sumlab.h): the index, the limbs at an index (int64, host order,
        // as bytes), and the state of summed limbs at an index (python/sumlab/_dist.py)
        .def("index", [](const state &self) {
            int32_t i = 0;
            sl_err err{};
            sumlab_status st;
            {
                std::lock_guard<std::mutex> lk(self.mu);
                st = sumlab_state_index(self.s, &i, &err);
            }
            check(st, err);
            return (long long)i;
        })
        .def("to_limbs", [](const state &self, long long index) {
            if (index < INT32_MIN || index > INT32_MAX) raise(PyExc_ValueError, "sumlab: index out of range");
            std::unique_lock<std::mutex> lk(self.mu);
            std::string buf(sumlab_state_limb_count(self.s) * sizeof(int64_t), '\0');
            sl_err err{};
            sumlab_status st =
                sumlab_state_to_limbs(self.s, (int32_t)index, (int64_t *)buf.data(), buf.size() / 8, &err);
            lk.unlock();
            check(st, err);
            return nb::bytes(buf.data(), buf.size());
        })
        .def("from_limbs", [](state &self, long long index, nb::bytes b) {
            if (index < INT32_MIN || index > INT32_MAX) raise(PyExc_ValueError, "sumlab: index out of range");
            const size_t m = sumlab_state_limb_count(self.s);
            if (b.size() != m * sizeof(int64_t))
                raise(PyExc_ValueError, "sumlab: " + std::to_string(b.size()) + " bytes of limbs, this state takes " +
                                            std::to_string(m * sizeof(int64_t)));
            std::vector<int64_t> w(m);
            memcpy(w.data(), b.c_str(), b.size());
            sl_err err{};
            sumlab_status st;
            {
                std::lock_guard<std::mutex> lk(self.mu);
                st = sumlab_state_from_limbs(self.s, (int32_t)index, w.data(), m, &err);
            }
            check(st, err);
        });

    // dst and src: saved states of one size; returns dst merged with src (a new bytes object).
    m.def("merge_saved", [](nb::bytes dst, nb::bytes src) {
        if (dst.size() != src.size())
            raise(PyExc_ValueError, "sumlab: saved states of different sizes (" + std::to_string(dst.size()) +
                                        " and " + std::to_string(src.size()) + " bytes) do not merge");
        std::string buf(dst.c_str(), dst.size());
        sl_err err{};
        check(sumlab_state_merge_saved(buf.data(), src.c_str(), buf.size(), &err), err);
        return nb::bytes(buf.data(), buf.size());
    });

    m.def("release", []() { sumlab_release(); });
}
