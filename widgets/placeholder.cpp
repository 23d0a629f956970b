// SPDX-License-Identifier: MIT
// Keeps the library non-empty until the first view lands.
namespace sl::widgets_placeholder { int unused = 0; }
