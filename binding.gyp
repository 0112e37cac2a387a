{
  "targets": [
    {
      "target_name": "sjd_torch",
      "sources": [
        "native/addon.cc",
        "native/runtime.cc",
        "native/cpu_allocator.cc",
        "native/tensor_io.cc",
        "native/random.cc",
        "native/categorical_draw.cc",
        "native/ops.cc",
        "native/autograd.cc",
        "native/optim.cc",
        "native/distributed.cc",
        "native/profiler.cc"
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "<!@(node native/find-libtorch.mjs include)"
      ],
      "defines": [
        "NAPI_VERSION=8",
        "NAPI_CPP_EXCEPTIONS",
        "NODE_ADDON_API_DISABLE_DEPRECATED",
        "<!@(node native/find-libtorch.mjs defines)"
      ],
      "cflags!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++14", "-std=gnu++20"],
      "cflags_cc": ["<!@(node native/find-libtorch.mjs cxxflags)", "-fexceptions", "-frtti", "-O2", "-Wno-unused-parameter", "-Wno-deprecated-declarations"],
      "libraries": [
        "-L<!(node native/find-libtorch.mjs libdir)",
        "-Wl,-rpath,<!(node native/find-libtorch.mjs libdir)",
        "<!@(node native/find-libtorch.mjs libs)"
      ]
    }
  ]
}
