"""A forked kernel starts without ipykernel's walk of every loaded module.

A starting IPython kernel walks every loaded module (its debugger's list of the kernel's own files;
a grading kernel never debugs). In a fork of the zygote that walk touches each of the thousands of
modules it imported, and so copies each page that holds one: a fifth of a kernel's page faults.
ipykernel's module reads ``sys`` only there and for the interpreter's version and current exception,
so it gets a ``sys`` whose ``modules`` is empty. Standard library only: the zygote imports it.
"""
import sys
import types

UPSTREAM = ("ipykernel.ipkernel",)  # every use of ``sys`` in that module


class _SysWithoutModules(types.ModuleType):
    """``sys`` as ipykernel's kernel module sees it in a fork: everything of it but ``sys.modules``."""

    def __getattr__(self, name):
        return getattr(sys, name)


def apply() -> None:
    kernel_module = sys.modules.get("ipykernel.ipkernel")  # imported with the libraries, if installed
    if kernel_module is not None:
        view = _SysWithoutModules("sys")
        view.modules = {}
        kernel_module.sys = view


def undo() -> None:
    kernel_module = sys.modules.get("ipykernel.ipkernel")
    if kernel_module is not None:
        kernel_module.sys = sys
