// Package sandbox puts layers around a bot process the arena does not
// trust, as many as the machine offers, and says which ones are on.
//
// The layers are:
//
//   - namespaces (user, mount, pid, net, ipc, uts): the bot runs as an
//     unprivileged user, sees a read-only view of the system with only its
//     own working folder and a private /tmp writable, sees and signals no
//     process but its own (its whole tree dies with it), and has no
//     network (or, with NetLoopback, a private loopback);
//   - cgroups (memory, pids, cpu, freezer), which package bot applies
//     with the limits of a Sandbox (see Sandbox.Cgroup);
//   - rlimits on processes, file size, open files and core dumps;
//   - no_new_privs and a seccomp filter that refuses ptrace, mount, kexec,
//     bpf, keyctl, perf_event_open, reboot, module loading and the like;
//   - landlock, the file-system layer when there is no mount namespace
//     (and a second wall behind it when there is).
//
// A bot is started through a short-lived "init": the arena's own
// executable (or the test binary) started again with a marker in its
// environment. Importing this package installs the hook (see init) that
// recognises the marker before main runs, sets the layers up from inside
// and executes the bot in place, so the bot keeps the process id, the
// process group and the pipes the arena gave the init.
//
// Prestart starts such an init ahead of its bot: it waits, its start-up
// paid, for Launch to send the bot's spec and standard files, so that a
// seat that starts its bot on every move (the Gomocup file protocol)
// does not pay the init's start on the move's clock. Prestarted for a
// Plan (the previous move's bot), it sets every layer up before it
// waits, and Launch sends only what to execute.
//
// A bot started once per game (the pipe protocols) has nothing to plan
// from, and a group of its own: package bot's Pool, which a Sandbox
// keeps (Keep, Kept), makes such groups ahead of time, each with an init
// prestarted without a plan waiting inside (Prestarted.Ready says when
// it waits), so that the start takes one, sets the bot's memory limit
// and core, and launches. Whoever makes a Sandbox that keeps a pool
// closes it (Close) when its bots are started.
//
// Probe finds out once per run what works on this machine by starting
// such an init; New turns a Policy (auto, strict, off) and that Report
// into a Sandbox, refusing in strict mode when a layer is missing.
package sandbox
