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
	"github.com/cilium/ebpf/btf"
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
//     interruptibly (not preempted) with anon_pipe_read, the read of an
//     anonymous pipe, on its kernel stack is marked asleep; a watched
//     thread given a core is marked awake;
//   - sched_waking: a watched thread being woken is marked awake;
//   - task_newtask: a thread or process started by a watched thread is
//     counted.
//
// Each watched thread has a slot of two 64-bit words in an array map
// that arena maps read-only: asleep (0 or 1) and the count of starts.
// The count changes only while the thread runs, before it can sleep
// again, so a reader that finds it asleep and then reads the count sees
// every start made before that sleep.

// pipeSleepSlots bounds the threads followed at once.
const pipeSleepSlots = 1024

// pipeSlotSize is the size of a slot: asleep, then the count of starts.
const pipeSlotSize = 16

// taskInterruptible is TASK_INTERRUPTIBLE, the state of a thread that
// waits for a pipe's writer (a thread waiting on a lock or a disk sleeps
// uninterruptibly).
const taskInterruptible = 1

// pipeStackDepth is how many return addresses of the kernel stack at a
// switch are searched for the pipe read, after the pipeStackSkip of the
// program and the tracepoint: the scheduler's (__schedule, schedule),
// then the read, vfs_read, ksys_read, do_syscall_64...
const (
	pipeStackSkip  = 2
	pipeStackDepth = 8
)

// PipeSleeps follows, for a sandbox, the threads whose pipe reads arena
// wants to see (see above). The first PipeSleep loads its programs in
// the background (reading the kernel's BTF and symbols takes ~0.1 s);
// Close unloads them.
type PipeSleeps struct {
	mu      sync.Mutex
	loading bool  // a load was started
	err     error // why the programs could not be loaded
	loaded  *pipePrograms
	free    []uint32 // the slots no thread holds
	active  int      // PipeSleeps not closed
	closed  bool     // Close was called: no new PipeSleep
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
	tid    uint32
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
// run them (no BPF, no BTF, not allowed: PipeSleepErr says why), when too
// many threads are followed, and after Close.
func (s *Sandbox) PipeSleep(tid int) *PipeSleep {
	if s == nil || s.pipes == nil {
		return nil
	}
	return s.pipes.watch(tid)
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
	if ps.loaded == nil || len(ps.free) == 0 {
		return nil
	}
	slot := ps.free[len(ps.free)-1]
	// The slot starts clear: what it said for its last thread must not
	// count for this one.
	if err := ps.loaded.coll.Maps["slots"].Update(slot, [2]uint64{}, ebpf.UpdateAny); err != nil {
		return nil
	}
	if err := ps.loaded.coll.Maps["watched"].Update(uint32(tid), slot, ebpf.UpdateNoExist); err != nil {
		return nil
	}
	ps.free = ps.free[:len(ps.free)-1]
	ps.active++
	at := unsafe.Pointer(&ps.loaded.slots[pipeSlotSize*slot])
	return &PipeSleep{ps: ps, tid: uint32(tid), slot: slot, asleep: (*uint64)(at), starts: (*uint64)(unsafe.Add(at, 8))}
}

func (ps *PipeSleeps) unwatch(w *PipeSleep) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if w.closed {
		return
	}
	w.closed = true
	if err := ps.loaded.coll.Maps["watched"].Delete(w.tid); err == nil {
		ps.free = append(ps.free, w.slot)
	}
	ps.active--
	if ps.active == 0 && ps.closed {
		ps.loaded.close()
		ps.loaded = nil
	}
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
	if ps.active == 0 && ps.loaded != nil {
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
		ps.free = make([]uint32, 0, pipeSleepSlots)
		for i := pipeSleepSlots - 1; i >= 0; i-- {
			ps.free = append(ps.free, uint32(i))
		}
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
// kernel: the offset of a task's pid from its BTF, the address range of
// the pipe read from its symbols.
func pipeSleepSpec() (*ebpf.CollectionSpec, error) {
	pidOff, err := taskPidOffset()
	if err != nil {
		return nil, err
	}
	lo, hi, err := kernelSymbolRange([]string{"anon_pipe_read", "pipe_read"})
	if err != nil {
		return nil, err
	}
	// slot finds the slot of the thread whose id is at fp-4 and leaves
	// its address in R0, or jumps to miss.
	slot := func(miss string) asm.Instructions {
		return asm.Instructions{
			asm.LoadMapPtr(asm.R1, 0).WithReference("watched"),
			asm.Mov.Reg(asm.R2, asm.RFP),
			asm.Add.Imm(asm.R2, -4),
			asm.FnMapLookupElem.Call(),
			asm.JEq.Imm(asm.R0, 0, miss),
			asm.LoadMem(asm.R1, asm.R0, 0, asm.Word),
			asm.StoreMem(asm.RFP, -8, asm.R1, asm.Word),
			asm.LoadMapPtr(asm.R1, 0).WithReference("slots"),
			asm.Mov.Reg(asm.R2, asm.RFP),
			asm.Add.Imm(asm.R2, -8),
			asm.FnMapLookupElem.Call(),
			asm.JEq.Imm(asm.R0, 0, miss),
		}
	}
	// taskID puts at fp-4 the thread id of the task R3 points at, or
	// jumps to miss.
	taskID := func(miss string) asm.Instructions {
		return asm.Instructions{
			asm.Add.Imm(asm.R3, int32(pidOff)),
			asm.Mov.Reg(asm.R1, asm.RFP),
			asm.Add.Imm(asm.R1, -4),
			asm.Mov.Imm(asm.R2, 4),
			asm.FnProbeReadKernel.Call(),
			asm.JNE.Imm(asm.R0, 0, miss),
		}
	}
	currentID := asm.Instructions{
		asm.FnGetCurrentPidTgid.Call(),
		asm.StoreMem(asm.RFP, -4, asm.R0, asm.Word), // the thread id: the low half
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
	awake := asm.Instructions{
		asm.Mov.Imm(asm.R1, 0),
		asm.StoreMem(asm.R0, 0, asm.R1, asm.DWord),
	}

	// sched_switch(preempt, prev, next, prev_state): first next, given
	// the core, is awake (a separate program would be a second call per
	// switch); then prev, the current thread.
	const stackBuf = -8 - 8*pipeStackDepth
	var search asm.Instructions
	for i := range pipeStackDepth {
		next := fmt.Sprintf("frame%d", i+1)
		if i == pipeStackDepth-1 {
			next = "out"
		}
		search = append(search,
			asm.LoadMem(asm.R1, asm.RFP, int16(stackBuf+8*i), asm.DWord).WithSymbol(fmt.Sprintf("frame%d", i)),
			asm.JLT.Reg(asm.R1, asm.R8, next),
			asm.JLT.Reg(asm.R1, asm.R9, "asleep"),
		)
	}
	switched := program(asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.LoadMem(asm.R3, asm.R6, 16, asm.DWord),
	}, taskID("prev"), slot("prev"), awake, asm.Instructions{
		asm.Mov.Imm(asm.R0, 0).WithSymbol("prev"),
		asm.LoadMem(asm.R2, asm.R6, 0, asm.DWord),
		asm.JNE.Imm(asm.R2, 0, "out"),
		asm.LoadMem(asm.R2, asm.R6, 24, asm.DWord),
		asm.JNE.Imm32(asm.R2, taskInterruptible, "out"),
	}, currentID, slot("out"), asm.Instructions{
		asm.Mov.Reg(asm.R7, asm.R0),
		asm.Mov.Reg(asm.R1, asm.R6),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, stackBuf),
		asm.Mov.Imm(asm.R3, 8*pipeStackDepth),
		asm.Mov.Imm(asm.R4, pipeStackSkip),
		asm.FnGetStack.Call(),
		asm.LoadImm(asm.R8, int64(lo), asm.DWord),
		asm.LoadImm(asm.R9, int64(hi), asm.DWord),
	}, search, asm.Instructions{
		asm.Mov.Imm(asm.R1, 1).WithSymbol("asleep"),
		asm.StoreMem(asm.R7, 0, asm.R1, asm.DWord),
	})
	waking := program(asm.Instructions{
		asm.LoadMem(asm.R3, asm.R1, 0, asm.DWord),
	}, taskID("out"), slot("out"), awake)
	started := program(currentID, slot("out"), asm.Instructions{
		asm.Mov.Imm(asm.R1, 1),
		asm.AddAtomic.Mem(asm.R0, asm.R1, asm.DWord, 8),
	})
	return &ebpf.CollectionSpec{
		Maps: map[string]*ebpf.MapSpec{
			"watched": {Type: ebpf.Hash, KeySize: 4, ValueSize: 4, MaxEntries: pipeSleepSlots},
			"slots":   {Type: ebpf.Array, KeySize: 4, ValueSize: pipeSlotSize, MaxEntries: pipeSleepSlots, Flags: unix.BPF_F_MMAPABLE},
		},
		Programs: map[string]*ebpf.ProgramSpec{
			"sched_switch": switched,
			"sched_waking": waking,
			"task_newtask": started,
		},
	}, nil
}

// taskPidOffset finds the offset of pid in the kernel's task_struct.
func taskPidOffset() (uint32, error) {
	spec, err := btf.LoadKernelSpec()
	if err != nil {
		return 0, fmt.Errorf("read the kernel's BTF: %w", err)
	}
	var task *btf.Struct
	if err := spec.TypeByName("task_struct", &task); err != nil {
		return 0, fmt.Errorf("find task_struct in the kernel's BTF: %w", err)
	}
	for _, m := range task.Members {
		if m.Name == "pid" {
			return m.Offset.Bytes(), nil
		}
	}
	return 0, fmt.Errorf("no pid in the kernel's task_struct")
}

// kernelSymbolRange returns the address range of the first of names
// that /proc/kallsyms lists with an address: from its address to the
// next symbol's.
func kernelSymbolRange(names []string) (lo, hi uint64, err error) {
	data, err := os.ReadFile("/proc/kallsyms")
	if err != nil {
		return 0, 0, err
	}
	var addrs []uint64
	found := map[string]uint64{}
	for line := range bytes.Lines(data) {
		f := bytes.Fields(line)
		if len(f) < 3 {
			continue
		}
		a, err := strconv.ParseUint(string(f[0]), 16, 64)
		if err != nil || a == 0 {
			continue
		}
		addrs = append(addrs, a)
		if len(f) == 3 && slices.Contains(names, string(f[2])) {
			found[string(f[2])] = a
		}
	}
	slices.Sort(addrs)
	for _, name := range names {
		lo, ok := found[name]
		if !ok {
			continue
		}
		i, _ := slices.BinarySearch(addrs, lo)
		for ; i < len(addrs) && addrs[i] == lo; i++ {
		}
		if i == len(addrs) {
			break
		}
		return lo, addrs[i], nil
	}
	return 0, 0, fmt.Errorf("no address of %s in /proc/kallsyms", strings.Join(names, " or "))
}
