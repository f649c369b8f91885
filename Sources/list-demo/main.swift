import TerminalListRenderer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let options: DemoOptions
do {
    options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileDescriptorOutput(fileDescriptor: 2).write(Array("list-demo: \(error)\nRun list-demo --help for the options.\n".utf8))
    exit(2)
}

switch options.command {
case .help:
    print(DemoOptions.usage)
case .walkthrough:
    Walkthrough.run()
case .leaderboard:
    LeaderboardProgram.run(options)
}
