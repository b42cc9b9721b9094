/* gpu_saxpy.saxpy(a, x, y) -> list: a * x + y for two equal-length sequences of floats, on the GPU. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#include "saxpy.h"

static PyObject* saxpy(PyObject* self, PyObject* args) {
  float a;
  PyObject *x_seq, *y_seq;
  if (!PyArg_ParseTuple(args, "fOO", &a, &x_seq, &y_seq)) return NULL;
  Py_ssize_t n = PySequence_Size(x_seq);
  if (n < 0 || PySequence_Size(y_seq) != n) {
    PyErr_SetString(PyExc_ValueError, "saxpy: x and y must be sequences of the same length");
    return NULL;
  }
  float* x = malloc(sizeof(float) * (size_t)(n ? n : 1));
  float* y = malloc(sizeof(float) * (size_t)(n ? n : 1));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* xi = PySequence_GetItem(x_seq, i);
    PyObject* yi = PySequence_GetItem(y_seq, i);
    x[i] = xi ? (float)PyFloat_AsDouble(xi) : 0.0f;
    y[i] = yi ? (float)PyFloat_AsDouble(yi) : 0.0f;
    Py_XDECREF(xi);
    Py_XDECREF(yi);
  }
  PyObject* result = NULL;
  if (!PyErr_Occurred()) {
    const char* error = saxpy_on_gpu((int)n, a, x, y);
    if (error != NULL) {
      PyErr_Format(PyExc_RuntimeError, "saxpy: %s", error);
    } else if ((result = PyList_New(n)) != NULL) {
      for (Py_ssize_t i = 0; i < n; ++i) PyList_SET_ITEM(result, i, PyFloat_FromDouble(y[i]));
    }
  }
  free(x);
  free(y);
  return result;
}

static PyMethodDef methods[] = {
    {"saxpy", saxpy, METH_VARARGS, "a * x + y on the GPU"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "gpu_saxpy", NULL, -1, methods};

PyMODINIT_FUNC PyInit_gpu_saxpy(void) { return PyModule_Create(&module); }
