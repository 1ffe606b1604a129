import AFGetSupport
import CPlatform
import Glibc

/// Gathers a download's body into larger writes. libcurl hands the write callback at most
/// 16 KiB at a time (CURL_MAX_WRITE_SIZE) whatever its receive buffer, and a system call per
/// piece costs more than one copy into this buffer and a write per 128 KiB. Not larger: ext4
/// gives the page cache folios as large as the write, and on Linux 6.18 a MiB's folio cost
/// several times a 128 KiB one to fill, for one large file as for many 1 MiB ones. Owned by
/// the curl thread; the buffer is taken once per task, at its first byte: a small file's no
/// larger than its announced body, a larger one's kept from an earlier task (`WriteBuffers`),
/// so neither maps and unmaps a fresh buffer. The measurements behind these sizes are in
/// docs/performance.md (the write path).
final class BufferedFileWriter {
    /// A writer's buffer at most, whatever its connections: memory stays flat however many
    /// there are.
    static let capacity = 128 << 10

    let sink: FileDescriptorSink
    private var capacity: Int
    private var buffer: UnsafeMutableRawPointer?
    private var pending = 0
    /// Bytes written since writeback was last started, and where that stretch begins.
    private var unsynced = 0
    private var unsyncedStart: Int64 = 0
    /// A stream starts writeback every 4 MiB, a segment every 1 MiB (with eight segments
    /// writing at once, 8 MiB): the final fsync then waits for little.
    private let writebackStretch: Int
    /// Bytes written since the disk thread was last asked to flush this file ahead of its end:
    /// every 16 MiB for a stream, 4 MiB for a segment.
    private var unflushed = 0
    private let flushAheadStretch: Int
    /// Why the last write failed; the writer refuses data from then on.
    private(set) var failure: TransferFailure?

    /// Bytes handed to the file so far.
    private(set) var written: Int64 = 0
    /// Where the next byte goes in the file: writes to a file afget made are positioned
    /// (pwrite), so several writers (segments) can share one descriptor.
    private var position: Int64

    /// Bytes taken so far, buffered or written: where the next byte would land.
    var nextOffset: Int64 { position + Int64(pending) }

    /// A stream afget was given (`-o -`) is written in order at its own offset: a positioned
    /// write there would overwrite what the shell or an earlier program put in a `>` file.
    private let isPositioned: Bool

    /// Flushes the file ahead of its end, when there is one.
    private let disk: DiskThread?
    /// Where the buffer comes from and goes back to, when the run keeps them.
    private let buffers: WriteBuffers?

    /// `offset` is where in the file writing starts; `isSegment`: one of several connections
    /// writing the file.
    init(sink: FileDescriptorSink, offset: Int64, isSegment: Bool, disk: DiskThread?, buffers: WriteBuffers?) {
        self.sink = sink
        self.disk = disk
        self.buffers = buffers
        capacity = Self.capacity
        writebackStretch = isSegment ? 1 << 20 : 4 << 20
        flushAheadStretch = isSegment ? 4 << 20 : 16 << 20
        position = offset
        unsyncedStart = offset
        isPositioned = !sink.isStream
    }

    deinit {
        guard let buffer else { return }
        if let buffers { buffers.giveBack(buffer, size: capacity) } else { buffer.deallocate() }
    }

    /// The response announced `length` bytes of body: a smaller buffer holds all of it, unless
    /// a kept buffer of the full size is there to be taken instead of a fresh mapping.
    func expectBody(length: Int64) {
        guard buffer == nil, length > 0 else { return }
        let fitted = min(capacity, Int((length + 4095) & ~4095))
        if buffers == nil || fitted < WriteBuffers.keptFrom { capacity = fitted }
    }

    /// Takes `count` bytes; false once a write has failed.
    func append(_ data: UnsafeRawPointer, _ count: Int) -> Bool {
        if pending + count > capacity && !flush() { return false }
        if count >= capacity {
            return write(data, count)
        }
        let buffer = self.buffer ?? allocateBuffer()
        buffer.advanced(by: pending).copyMemory(from: data, byteCount: count)
        pending += count
        return true
    }

    private func allocateBuffer() -> UnsafeMutableRawPointer {
        let allocated = buffers?.take(size: capacity) ?? .allocate(byteCount: capacity, alignment: 4096)
        buffer = allocated
        return allocated
    }

    /// Writes out whatever is buffered: when the task ends, and a few times a second so a
    /// slow stream (`-o -` into a pipe) is not held back.
    @discardableResult
    func flush() -> Bool {
        guard pending > 0, let buffer else { return failure == nil }
        let ok = write(buffer, pending)
        pending = 0
        return ok
    }

    private func write(_ data: UnsafeRawPointer, _ count: Int) -> Bool {
        guard failure == nil else { return false }
        var done = 0
        while done < count {
            let result =
                isPositioned
                ? pwrite(sink.descriptor, data + done, count - done, off_t(position + Int64(done)))
                : Glibc.write(sink.descriptor, data + done, count - done)
            if result < 0 {
                if errno == EINTR { continue }
                failure = fileFailure(.write, sink.name, errno: errno)
                // What reached the file before a full disk or a size limit still counts: the
                // checkpoint then keeps it for the next run.
                account(data, done)
                return false
            }
            done += result
        }
        account(data, count)
        return true
    }

    /// `count` bytes from `data` are in the file.
    private func account(_ data: UnsafeRawPointer, _ count: Int) {
        guard count > 0 else { return }
        for digest in sink.digests { digest.update(data, count) }
        written += Int64(count)
        position += Int64(count)
        startWriteback(after: count)
    }

    /// Asks the kernel to start writing out each finished stretch now, so the fsync
    /// that completes a download waits for the last stretch only instead of the whole file.
    /// It never blocks on the disk. Not for streams: their offsets are not `position`.
    private func startWriteback(after count: Int) {
        guard isPositioned else { return }
        unsynced += count
        guard unsynced >= writebackStretch else { return }
        _ = afp_start_writeback(sink.descriptor, off_t(unsyncedStart), off_t(unsynced))
        unsyncedStart += Int64(unsynced)
        unflushed += unsynced
        unsynced = 0
        if unflushed >= flushAheadStretch, let disk {
            unflushed = 0
            flushAhead(on: disk)
        }
    }

    /// Has the disk thread flush the file while the body still arrives. Started writeback
    /// leaves the data in the disk's volatile cache (on a virtual disk, the host's page cache),
    /// which the final fsync would otherwise wait out in one go at the end. A duplicate
    /// descriptor keeps the file open for the job, whenever it runs.
    private func flushAhead(on disk: DiskThread) {
        let descriptor = dup(sink.descriptor)
        guard descriptor >= 0 else { return }
        disk.submit {
            _ = fdatasync(descriptor)
            close(descriptor)
        }
    }
}
