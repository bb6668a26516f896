package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/link"
	"golang.org/x/sys/unix"
)

// The look before a pause (package bot) must tell whether a bot's lone
// thread sleeps reading its input pipe, where nothing but arena can wake
// it. /proc tells it with a read of the thread's wait channel, and that
// read, a kernel stack unwind and a symbol lookup, is the dearest part of
// a move. PipeSleeps has the kernel keep the answer instead, in memory
// arena maps, written by three small eBPF programs on scheduler
// tracepoints (function tracing, fentry, is refused on the machines we
// run on; tracepoints are not):
//
//   - sched_switch: a watched thread that leaves its core to sleep
//     interruptibly (not preempted) in anon_pipe_read, the read of an
//     anonymous pipe (the first frame of its kernel stack below the
//     scheduler's own, where the wait channel would name it), is marked
//     asleep; a watched thread given a core is marked awake;
//   - sched_waking: a watched thread being woken is marked awake;
//   - task_newtask: a thread or process started by a watched thread is
//     counted.
//
// Each watched thread has a slot in an array map that arena maps
// read-only: asleep (0 or 1), the count of starts, and the thread's id;
// the slot of thread tid is tid mod pipeSleepSlots (two watched threads
// whose ids share it cannot both be watched). The count changes only
// while the thread runs, before it can sleep again, so a reader that
// finds it asleep and then reads the count sees every start made before
// that sleep. The programs find a woken or switched-in thread by its
// task pointer (a thread id would cost a read of kernel memory each
// time): a second table, by a hash of the pointer, holds the pointer
// and the thread's id, written at the thread's first switch; a thread
// that takes over another's entry there clears that one's asleep, which
// stays cleared until it takes its entry back. Array lookups are inlined
// by the verifier, so a switch costs a few loads when nobody is watched.

// pipeSleepSlots is the size of both tables (a power of two).
const pipeSleepSlots = 4096

// pipeTaskHashShift drops the low bits of a task pointer, which
// neighbouring tasks (10 KB or so apart) share, before the hash.
const pipeTaskHashShift = 6

// pipeSlotSize is the size of a slot: asleep, the count of starts, the
// thread id (0: free), and 8 bytes unused.
const pipeSlotSize = 32

// taskInterruptible is TASK_INTERRUPTIBLE, the state of a thread that
// waits for a pipe's writer (a thread waiting on a lock or a disk sleeps
// uninterruptibly).
const taskInterruptible = 1

// pipeReadSymbols name the read of an anonymous pipe: anon_pipe_read
// since Linux 6.15 split it from the FIFO's, pipe_read before.
var pipeReadSymbols = []string{"anon_pipe_read", "pipe_read"}

// schedSectionSymbols bound the scheduler's own functions (__sched).
var schedSectionSymbols = [2]string{"__sched_text_start", "__sched_text_end"}

// pipeStackDepth is how many return addresses of the kernel stack at a
// switch are searched for the pipe read: the program's and the
// tracepoint's (two or three), the scheduler's (__schedule, schedule),
// then the read.
const pipeStackDepth = 12

// PipeSleeps follows, for a sandbox, the threads whose pipe reads arena
// wants to see (see above). The first PipeSleep loads its programs in
// the background (reading the kernel's symbols takes ~0.1 s);
// Close unloads them.
type PipeSleeps struct {
	mu      sync.Mutex
	loading bool  // a load was started
	err     error // why the programs could not be loaded
	loaded  *pipePrograms
	used    map[uint32]bool // the slots threads hold
	active  int             // PipeSleeps not closed
	closed  bool            // Close was called: no new PipeSleep
}

// pipePrograms is what a load holds: the programs, attached, and the
// slots, mapped.
type pipePrograms struct {
	coll  *ebpf.Collection
	links []link.Link
	slots []byte
}

// PipeSleep is one thread followed by PipeSleeps.
type PipeSleep struct {
	ps     *PipeSleeps
	slot   uint32
	asleep *uint64
	starts *uint64
	// closed: Close was called (guarded by ps.mu).
	closed bool
}

// State returns whether the thread sleeps in the read of an anonymous
// pipe, and how many threads and processes it has started since it was
// first watched (modulo 2^32). Asleep is read first: a start made before
// the sleep it reports is counted.
func (w *PipeSleep) State() (asleep bool, starts uint32) {
	asleep = atomic.LoadUint64(w.asleep) == 1
	return asleep, uint32(atomic.LoadUint64(w.starts))
}

// Close stops following the thread.
func (w *PipeSleep) Close() {
	if w == nil {
		return
	}
	w.ps.unwatch(w)
}

// PipeSleep starts following thread tid. It returns nil while the
// programs load (the first call starts the load), when the kernel cannot
// run them (no BPF, not allowed: PipeSleepErr says why), when another
// followed thread holds its slot, and after Close.
func (s *Sandbox) PipeSleep(tid int) *PipeSleep {
	if s == nil || s.pipes == nil {
		return nil
	}
	return s.pipes.watch(tid)
}

// PipeSleepPrerequisites reports whether this machine gives what the
// pipe sleep programs need before they are loaded: a program may run on
// the scheduler's sched_switch tracepoint (root, BPF), and
// /proc/kallsyms shows the addresses of the pipe read and of the
// scheduler's section. Nil, or the first that is missing. Where it is
// nil, the programs failing to load is a fault of arena's (the tests
// count on it).
func PipeSleepPrerequisites() error {
	prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{
		Type:         ebpf.RawTracepoint,
		Instructions: asm.Instructions{asm.Mov.Imm(asm.R0, 0), asm.Return()},
		License:      "GPL",
	})
	if err != nil {
		return fmt.Errorf("load a program: %w", err)
	}
	defer prog.Close()
	l, err := link.AttachRawTracepoint(link.RawTracepointOptions{Name: "sched_switch", Program: prog})
	if err != nil {
		return fmt.Errorf("attach to sched_switch: %w", err)
	}
	l.Close()
	_, err = pipeSleepAddresses()
	return err
}

// pipeAddresses are the kernel addresses the programs compare return
// addresses with: the pipe read's function and the scheduler's section.
type pipeAddresses struct{ pipeLo, pipeHi, schedLo, schedHi uint64 }

// pipeSleepAddresses reads them from /proc/kallsyms (only root sees
// addresses).
func pipeSleepAddresses() (a pipeAddresses, err error) {
	syms, err := readKernelSymbols()
	if err != nil {
		return a, err
	}
	if a.pipeLo, a.pipeHi, err = syms.rangeOf(pipeReadSymbols...); err != nil {
		return a, err
	}
	a.schedLo, a.schedHi, err = syms.between(schedSectionSymbols[0], schedSectionSymbols[1])
	return a, err
}

// CheckPipeSleeps loads the pipe sleep programs and unloads them: nil
// where a pause's look at an idle sandboxed bot can be a read of the
// kernel's record, or why it reads /proc (arena doctor).
func CheckPipeSleeps() error {
	pp, err := loadPipePrograms()
	if err != nil {
		return err
	}
	pp.close()
	return nil
}

// PipeSleepErr says why PipeSleep gives nothing: the load failed (nil
// while it has not, or has not yet run).
func (s *Sandbox) PipeSleepErr() error {
	if s == nil || s.pipes == nil {
		return nil
	}
	s.pipes.mu.Lock()
	defer s.pipes.mu.Unlock()
	return s.pipes.err
}

func (ps *PipeSleeps) watch(tid int) *PipeSleep {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.closed {
		return nil
	}
	if !ps.loading {
		ps.loading = true
		go ps.load()
		return nil
	}
	slot := uint32(tid) % pipeSleepSlots
	if ps.loaded == nil || ps.used[slot] {
		return nil
	}
	// The slot starts clear: what it said for its last thread must not
	// count for this one.
	if err := ps.loaded.coll.Maps["slots"].Update(slot, [4]uint64{0, 0, uint64(tid), 0}, ebpf.UpdateAny); err != nil {
		return nil
	}
	ps.used[slot] = true
	ps.active++
	at := unsafe.Pointer(&ps.loaded.slots[pipeSlotSize*slot])
	return &PipeSleep{ps: ps, slot: slot, asleep: (*uint64)(at), starts: (*uint64)(unsafe.Add(at, 8))}
}

func (ps *PipeSleeps) unwatch(w *PipeSleep) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if w.closed {
		return
	}
	w.closed = true
	if err := ps.loaded.coll.Maps["slots"].Update(w.slot, [4]uint64{}, ebpf.UpdateAny); err == nil {
		delete(ps.used, w.slot)
	}
	ps.active--
	ps.unloadIfDone()
}

// Close unloads the programs, at once or when the last PipeSleep is
// closed (a PipeSleep reads the mapped slots until then); PipeSleep
// returns nil after it.
func (ps *PipeSleeps) Close() {
	if ps == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.closed = true
	ps.unloadIfDone()
}

// unloadIfDone unloads the programs once Close was called and no
// PipeSleep reads the slots any more. It is called with mu held.
func (ps *PipeSleeps) unloadIfDone() {
	if ps.closed && ps.active == 0 && ps.loaded != nil {
		ps.loaded.close()
		ps.loaded = nil
	}
}

// load loads the programs and makes them ready for PipeSleep, or notes
// why it could not.
func (ps *PipeSleeps) load() {
	progs, err := loadPipePrograms()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	switch {
	case err != nil:
		ps.err = err
	case ps.closed:
		progs.close()
	default:
		ps.loaded = progs
		ps.used = map[uint32]bool{}
	}
}

func (pp *pipePrograms) close() {
	for _, l := range pp.links {
		l.Close()
	}
	if pp.slots != nil {
		unix.Munmap(pp.slots)
	}
	pp.coll.Close()
}

// loadPipePrograms loads and attaches the programs and maps the slots.
func loadPipePrograms() (_ *pipePrograms, err error) {
	spec, err := pipeSleepSpec()
	if err != nil {
		return nil, err
	}
	coll, err := ebpf.NewCollection(spec)
	if err != nil {
		return nil, fmt.Errorf("load the pipe sleep programs: %w", err)
	}
	pp := &pipePrograms{coll: coll}
	defer func() {
		if err != nil {
			pp.close()
		}
	}()
	for _, tp := range []string{"sched_switch", "sched_waking", "task_newtask"} {
		l, err := link.AttachRawTracepoint(link.RawTracepointOptions{Name: tp, Program: coll.Programs[tp]})
		if err != nil {
			return nil, fmt.Errorf("attach to %s: %w", tp, err)
		}
		pp.links = append(pp.links, l)
	}
	if pp.slots, err = unix.Mmap(coll.Maps["slots"].FD(), 0, pipeSlotSize*pipeSleepSlots, unix.PROT_READ, unix.MAP_SHARED); err != nil {
		return nil, fmt.Errorf("map the pipe sleep slots: %w", err)
	}
	return pp, nil
}

// pipeSleepSpec is the maps and programs described above, for this
// kernel: the address range of the pipe read comes from its symbols.
func pipeSleepSpec() (*ebpf.CollectionSpec, error) {
	addrs, err := pipeSleepAddresses()
	if err != nil {
		return nil, err
	}
	const (
		mask     = pipeSleepSlots - 1
		stackBuf = -8 - 8*pipeStackDepth
	)
	// lookup puts key (masked) at fp+at and looks it up in table: R0
	// points at the value, or it jumps to miss.
	lookup := func(table string, key asm.Register, at int16, miss string) asm.Instructions {
		return asm.Instructions{
			asm.And.Imm(key, mask),
			asm.StoreMem(asm.RFP, at, key, asm.Word),
			asm.LoadMapPtr(asm.R1, 0).WithReference(table),
			asm.Mov.Reg(asm.R2, asm.RFP),
			asm.Add.Imm(asm.R2, int32(at)),
			asm.FnMapLookupElem.Call(),
			asm.JEq.Imm(asm.R0, 0, miss),
		}
	}
	// slot finds the slot of the thread whose id is in tid: R0 points
	// at it, or it jumps to miss. It uses fp-8.
	slot := func(tid asm.Register, miss string) asm.Instructions {
		insns := append(asm.Instructions{asm.Mov.Reg(asm.R2, tid)}, lookup("slots", asm.R2, -8, miss)...)
		return append(insns,
			asm.LoadMem(asm.R1, asm.R0, 16, asm.DWord),
			asm.JNE.Reg(asm.R1, tid, miss),
		)
	}
	// entry finds the entry of the task pointer in task: R0 points at
	// it, or it jumps to miss. It uses fp-4.
	entry := func(task asm.Register, miss string) asm.Instructions {
		return append(asm.Instructions{
			asm.Mov.Reg(asm.R2, task),
			asm.RSh.Imm(asm.R2, pipeTaskHashShift),
		}, lookup("tasks", asm.R2, -4, miss)...)
	}
	// wake marks awake the watched thread whose task pointer is in R7,
	// if any, then goes on at next. It uses R8.
	wake := func(label, next string) asm.Instructions {
		insns := entry(asm.R7, next)
		insns[0] = insns[0].WithSymbol(label)
		insns = append(insns,
			asm.LoadMem(asm.R1, asm.R0, 0, asm.DWord),
			asm.JNE.Reg(asm.R1, asm.R7, next),
			asm.LoadMem(asm.R8, asm.R0, 8, asm.DWord),
		)
		insns = append(insns, slot(asm.R8, next)...)
		return append(insns,
			asm.Mov.Imm(asm.R1, 0),
			asm.StoreMem(asm.R0, 0, asm.R1, asm.DWord),
		)
	}
	currentTID := asm.Instructions{
		asm.FnGetCurrentPidTgid.Call(),
		asm.Mov.Reg32(asm.R8, asm.R0), // the thread id: the low half
	}
	out := asm.Instructions{
		asm.Mov.Imm(asm.R0, 0).WithSymbol("out"),
		asm.Return(),
	}
	program := func(parts ...asm.Instructions) *ebpf.ProgramSpec {
		var all asm.Instructions
		for _, p := range parts {
			all = append(all, p...)
		}
		all = append(all, out...)
		return &ebpf.ProgramSpec{Type: ebpf.RawTracepoint, Instructions: all, License: "GPL"}
	}

	// sched_switch(preempt, prev, next, prev_state): next, given the
	// core, is awake; then prev, the current thread, if it sleeps
	// interruptibly in the pipe read, is asleep.
	// The frames of the tracepoint's and the program's own come first
	// (how many depends on how many programs the tracepoint runs), then
	// the scheduler's own functions (__sched); the first frame after
	// those must be in the pipe read, as the wait channel /proc gives
	// would name it.
	var search asm.Instructions
	label := func(phase string, i int) string {
		if i == pipeStackDepth {
			return "out"
		}
		return fmt.Sprintf("%s%d", phase, i)
	}
	for i := range pipeStackDepth {
		frame := int16(stackBuf + 8*i)
		search = append(search,
			// Before the scheduler's frames.
			asm.LoadMem(asm.R1, asm.RFP, frame, asm.DWord).WithSymbol(label("before", i)),
			asm.JLT.Reg(asm.R1, asm.R2, label("before", i+1)),
			asm.JLT.Reg(asm.R1, asm.R3, label("sched", i+1)),
			asm.Ja.Label(label("before", i+1)),
		)
		if i == 0 {
			continue // the first frame is never among them
		}
		search = append(search,
			// Among them.
			asm.LoadMem(asm.R1, asm.RFP, frame, asm.DWord).WithSymbol(label("sched", i)),
			asm.JLT.Reg(asm.R1, asm.R2, label("after", i)),
			asm.JLT.Reg(asm.R1, asm.R3, label("sched", i+1)),
			// The first one after them.
			asm.JLT.Reg(asm.R1, asm.R4, "out").WithSymbol(label("after", i)),
			asm.JLT.Reg(asm.R1, asm.R5, "asleep"),
			asm.Ja.Label("out"),
		)
	}
	switched := program(asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.LoadMem(asm.R7, asm.R6, 16, asm.DWord),
	}, wake("next", "prev"), asm.Instructions{
		asm.LoadMem(asm.R2, asm.R6, 0, asm.DWord).WithSymbol("prev"),
		asm.JNE.Imm(asm.R2, 0, "out"),
		asm.LoadMem(asm.R2, asm.R6, 24, asm.DWord),
		asm.JNE.Imm32(asm.R2, taskInterruptible, "out"),
	}, currentTID, slot(asm.R8, "out"), asm.Instructions{
		asm.Mov.Reg(asm.R9, asm.R0),
		asm.FnGetCurrentTask.Call(),
		asm.Mov.Reg(asm.R7, asm.R0),
	}, entry(asm.R7, "out"), asm.Instructions{
		// Our entry already?
		asm.LoadMem(asm.R1, asm.R0, 0, asm.DWord),
		asm.JNE.Reg(asm.R1, asm.R7, "take"),
		asm.LoadMem(asm.R1, asm.R0, 8, asm.DWord),
		asm.JEq.Reg(asm.R1, asm.R8, "stack"),
		// Take it over; its thread, if watched, is awake from now on
		// (its wake-up would go unseen).
		asm.LoadMem(asm.R1, asm.R0, 8, asm.DWord).WithSymbol("take"),
		asm.StoreMem(asm.R0, 0, asm.R7, asm.DWord),
		asm.StoreMem(asm.R0, 8, asm.R8, asm.DWord),
		asm.JEq.Reg(asm.R1, asm.R8, "stack"),
		asm.Mov.Reg(asm.R7, asm.R1),
	}, slot(asm.R7, "stack"), asm.Instructions{
		asm.Mov.Imm(asm.R1, 0),
		asm.StoreMem(asm.R0, 0, asm.R1, asm.DWord),
		asm.Mov.Reg(asm.R1, asm.R6).WithSymbol("stack"),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, stackBuf),
		asm.Mov.Imm(asm.R3, 8*pipeStackDepth),
		asm.Mov.Imm(asm.R4, 0),
		asm.FnGetStack.Call(),
		asm.LoadImm(asm.R2, int64(addrs.schedLo), asm.DWord),
		asm.LoadImm(asm.R3, int64(addrs.schedHi), asm.DWord),
		asm.LoadImm(asm.R4, int64(addrs.pipeLo), asm.DWord),
		asm.LoadImm(asm.R5, int64(addrs.pipeHi), asm.DWord),
	}, search, asm.Instructions{
		asm.Mov.Imm(asm.R1, 1).WithSymbol("asleep"),
		asm.StoreMem(asm.R9, 0, asm.R1, asm.DWord),
	})
	// sched_waking(p): p is awake.
	waking := program(asm.Instructions{
		asm.LoadMem(asm.R7, asm.R1, 0, asm.DWord),
	}, wake("waking", "out"))
	// task_newtask(task, flags): the current thread started one.
	started := program(currentTID, slot(asm.R8, "out"), asm.Instructions{
		asm.Mov.Imm(asm.R1, 1),
		asm.AddAtomic.Mem(asm.R0, asm.R1, asm.DWord, 8),
	})
	return &ebpf.CollectionSpec{
		Maps: map[string]*ebpf.MapSpec{
			"slots": {Type: ebpf.Array, KeySize: 4, ValueSize: pipeSlotSize, MaxEntries: pipeSleepSlots, Flags: unix.BPF_F_MMAPABLE},
			"tasks": {Type: ebpf.Array, KeySize: 4, ValueSize: 16, MaxEntries: pipeSleepSlots},
		},
		Programs: map[string]*ebpf.ProgramSpec{
			"sched_switch": switched,
			"sched_waking": waking,
			"task_newtask": started,
		},
	}, nil
}

// kernelSymbols is /proc/kallsyms: every address, in order, and the
// address of each name.
type kernelSymbols struct {
	addrs  []uint64
	byName map[string]uint64
}

// readKernelSymbols reads /proc/kallsyms (only root sees addresses).
func readKernelSymbols() (*kernelSymbols, error) {
	data, err := os.ReadFile("/proc/kallsyms")
	if err != nil {
		return nil, err
	}
	return parseKernelSymbols(data), nil
}

// parseKernelSymbols reads the lines "ADDRESS TYPE NAME [MODULE]" of
// kallsyms; the symbols of modules are left out, and so are zero
// addresses (what a reader not allowed to see them gets).
func parseKernelSymbols(data []byte) *kernelSymbols {
	ks := &kernelSymbols{byName: map[string]uint64{}}
	for line := range bytes.Lines(data) {
		f := bytes.Fields(line)
		if len(f) != 3 {
			continue
		}
		a, err := strconv.ParseUint(string(f[0]), 16, 64)
		if err != nil || a == 0 {
			continue
		}
		ks.addrs = append(ks.addrs, a)
		if _, dup := ks.byName[string(f[2])]; !dup {
			ks.byName[string(f[2])] = a
		}
	}
	slices.Sort(ks.addrs)
	return ks
}

// rangeOf returns the address range of the first of names the kernel
// has: from its address to the next symbol's.
func (ks *kernelSymbols) rangeOf(names ...string) (lo, hi uint64, err error) {
	for _, name := range names {
		lo, ok := ks.byName[name]
		if !ok {
			continue
		}
		i, _ := slices.BinarySearch(ks.addrs, lo)
		for i < len(ks.addrs) && ks.addrs[i] == lo {
			i++
		}
		if i == len(ks.addrs) {
			break
		}
		return lo, ks.addrs[i], nil
	}
	return 0, 0, fmt.Errorf("no address of %s in /proc/kallsyms", strings.Join(names, " or "))
}

// between returns the addresses of two symbols that bound a section.
func (ks *kernelSymbols) between(start, end string) (lo, hi uint64, err error) {
	lo, okLo := ks.byName[start]
	hi, okHi := ks.byName[end]
	if !okLo || !okHi || hi <= lo {
		return 0, 0, fmt.Errorf("no addresses of %s and %s in /proc/kallsyms", start, end)
	}
	return lo, hi, nil
}
