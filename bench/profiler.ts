import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * A server process's V8 profiles of one run, taken in-process through the inspector (no --cpu-prof
 * of the whole life): where the time goes (.cpuprofile) and, beside it, where the bytes go
 * (.heapprofile), for DevTools. The gateway's child and the bare Yoga floor's use the same one, so
 * their profiles compare.
 */
export class RunProfiler {
  #session: Session | undefined;

  async start(): Promise<void> {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    // A sample per 32 KB allocated, counting what the collector has already freed too: without
    // those flags the profile holds only what is still alive when it stops, which is not where a
    // run's bytes went.
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 32 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    this.#session = session;
  }

  /** Writes `path` (a .cpuprofile) and the .heapprofile beside it; resolves with `path`. */
  async stop(path: string): Promise<string> {
    const session = this.#session!;
    this.#session = undefined;
    const { profile } = await session.post('Profiler.stop');
    const { profile: heap } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    await writeFile(path, JSON.stringify(profile));
    await writeFile(path.replace(/\.cpuprofile$/, '') + '.heapprofile', JSON.stringify(heap));
    return path;
  }
}
