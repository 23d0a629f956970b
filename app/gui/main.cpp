// SPDX-License-Identifier: MIT
#include <QApplication>
#include <QLabel>
#include <QMainWindow>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("SchedLab");
    QMainWindow w;
    w.setWindowTitle("SchedLab");
    auto* label = new QLabel(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString("No graph"));
    w.setCentralWidget(label);
    w.resize(1200, 800);
    w.show();
    return app.exec();
}
