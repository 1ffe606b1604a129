import Glibc
import Synchronization

/// A value behind a lock, used as Synchronization's `Mutex` is (`let state = PthreadMutex(State())`,
/// `state.withLock { $0... }`), whose locking ThreadSanitizer can see.
///
/// Why not `Mutex` alone: on Linux it locks with futex system calls that TSan does not
/// intercept, so under `-sanitize=thread` every access made inside `withLock` from two threads
/// is reported as a race, and a real race cannot be told from a locked access. A pthread mutex
/// is intercepted: its lock and unlock order the accesses for TSan.
///
/// Why always, not only in sanitizer builds: Swift has no compilation condition for a sanitizer,
/// so a build flag would have to be passed by hand beside `--sanitize=thread`, and a run without
/// it would report every locked access again. The cost is one uncontended pthread lock beside
/// the futex one (tens of nanoseconds) per `withLock`; afget takes these locks a few times per
/// event, never per byte. And the code tested under TSan is then the code that ships.
///
/// The value itself stays in a `Mutex`, so the compiler still checks what crosses threads
/// (`sending`); the pthread mutex, always taken first, decides who holds it.
///
/// Why `public` (its members are `package`): Swift 6.3 does not specialize the inlinable
/// methods of a `package` generic class in other modules, so each `withLock` ran the generic
/// code and asked the runtime for `Mutex<Value>`'s metadata, about 1 % of a list's CPU.
public final class PthreadMutex<Value: ~Copyable>: Sendable {
    @usableFromInline let storage: Mutex<Value>
    /// A pthread mutex is made to be shared between threads; Swift cannot know that of a pointer.
    /// It is set once here and freed in deinit, when no thread can hold it.
    @usableFromInline nonisolated(unsafe) let lock: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ initialValue: consuming sending Value) {
        storage = Mutex(initialValue)
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try storage.withLock(body)
    }
}
