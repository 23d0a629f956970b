// SPDX-License-Identifier: MIT
#pragma once
// One test executable per area (tests/CMakeLists.txt): each tests/<area>/tst_<unit>.cpp registers
// its QtTest class under <unit> with SCHEDLAB_TEST_MAIN, and the area's main (testmain.cpp) runs
// the one its first argument names, with QtTest's own arguments after it:
//   tst_core brkga -v2            tst_core --list
// CTest runs each unit in a process of its own (area_unit), as when each was an executable.
#include <QTest>

#include <functional>

namespace sl::test {

/// Runs a QtTest class with QtTest's arguments (argv[0] is the program).
using UnitRunner = std::function<int(int argc, char** argv)>;

/// Adds a unit to the executable's list, at static initialisation. `initMain` runs before the
/// application object exists (QtTest's TestClass::initMain(), when it has one).
struct UnitRegistration {
    UnitRegistration(const char* unit, void (*initMain)(), UnitRunner run);
};

} // namespace sl::test

/// In place of QTEST_MAIN / QTEST_GUILESS_MAIN: registers `TestClass` under the name `unit`.
#define SCHEDLAB_TEST_MAIN(unit, TestClass)                                                   \
    static const sl::test::UnitRegistration schedlabTestUnit_##unit{                            \
        #unit, &QTest::Internal::callInitMain<TestClass>, [](int argc, char** argv) {             \
            TestClass tc;                                                                       \
            return QTest::qExec(&tc, argc, argv);                                               \
        }};
