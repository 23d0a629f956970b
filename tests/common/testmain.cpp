// SPDX-License-Identifier: MIT
// The main of an area's test executable (testmain.h): the application object of a QtTest main
// (QApplication for the views' tests, QCoreApplication otherwise), then the unit named first.
#include "common/testmain.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#ifdef SCHEDLAB_TEST_WIDGETS
#include <QApplication>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif

namespace sl::test {

namespace {
struct Unit {
    void (*initMain)();
    UnitRunner run;
};

std::map<std::string, Unit>& units() {
    static std::map<std::string, Unit> all;
    return all;
}

int usage(const char* program) {
    std::fprintf(stderr, "usage: %s UNIT [QtTest options]   (--list: the units)\n", program);
    return 2;
}
} // namespace

UnitRegistration::UnitRegistration(const char* unit, void (*initMain)(), UnitRunner run) {
    units().emplace(unit, Unit{initMain, std::move(run)});
}

} // namespace sl::test

int main(int argc, char** argv) {
    using sl::test::units;
    if (argc < 2) return sl::test::usage(argv[0]);
    const std::string unit = argv[1];
    if (unit == "--list") {
        for (const auto& [name, u] : units()) std::printf("%s\n", name.c_str());
        return 0;
    }
    const auto found = units().find(unit);
    if (found == units().end()) {
        std::fprintf(stderr, "%s: no unit '%s' (--list: the units)\n", argv[0], unit.c_str());
        return 2;
    }
    // QtTest sees the program and its own options, as from QTEST_MAIN
    std::vector<char*> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    int count = static_cast<int>(args.size());
    found->second.initMain();
    TestApplication app(count, args.data());
    app.setAttribute(Qt::AA_Use96Dpi, true);   // as QTEST_MAIN and QTEST_GUILESS_MAIN do
    return found->second.run(count, args.data());
}
