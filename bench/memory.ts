import { readFileSync } from 'node:fs';

/**
 * Resident memory, sampled every 100 ms: this process (the gateway, the benchmark's own requests and,
 * in its phase, the subscription floor's server) and each child (sandbox, load generator, the
 * subscription clients), with the peak of each phase.
 */

export interface PhasePeak {
  phase: string;
  /** This process, MB. */
  benchMb: number;
  /** This process's V8 heap: the most in use, and the most reserved, MB. */
  heapUsedMb: number;
  heapTotalMb: number;
  /** Each child's peak, MB, in the order given (null where /proc is not readable). */
  childrenMb: (number | null)[];
}

export interface MemoryReport {
  children: string[];
  phases: PhasePeak[];
  /** The kernel's own high-water mark of this process (VmHWM), a check on the sampling. */
  kernelPeakBenchMb: number | null;
  samples: number;
}

const MB = 1024 * 1024;

/** VmRSS or VmHWM of a process from /proc, in MB; null off Linux or once the process is gone. */
function procMb(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const found = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return found ? Number(found[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process has used, ms: this one from process.cpuUsage, another from
 * /proc/<pid>/stat (clock ticks of 10 ms); null where /proc is not readable.
 */
export function cpuMs(pid: number | 'self' | undefined): number | null {
  if (pid === 'self') {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export class MemorySampler {
  readonly #children: { name: string; pid: number | undefined }[];
  readonly #phases: PhasePeak[] = [];
  #current: PhasePeak;
  #timer: NodeJS.Timeout | undefined;
  #samples = 0;

  constructor(children: { name: string; pid: number | undefined }[], firstPhase: string) {
    this.#children = children;
    this.#current = this.#open(firstPhase);
  }

  start(): void {
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), 100);
    this.#timer.unref();
  }

  /** Samples from now on count toward `name`. */
  phase(name: string): void {
    this.#sample();
    this.#current = this.#open(name);
    this.#sample();
  }

  stop(): MemoryReport {
    this.#sample();
    clearInterval(this.#timer);
    return {
      children: this.#children.map((c) => c.name),
      phases: this.#phases,
      kernelPeakBenchMb: procMb('self', 'VmHWM'),
      samples: this.#samples,
    };
  }

  #open(name: string): PhasePeak {
    const peak: PhasePeak = { phase: name, benchMb: 0, heapUsedMb: 0, heapTotalMb: 0, childrenMb: this.#children.map(() => null) };
    this.#phases.push(peak);
    return peak;
  }

  #sample(): void {
    this.#samples += 1;
    const peak = this.#current;
    const usage = process.memoryUsage();
    peak.benchMb = Math.max(peak.benchMb, usage.rss / MB);
    peak.heapUsedMb = Math.max(peak.heapUsedMb, usage.heapUsed / MB);
    peak.heapTotalMb = Math.max(peak.heapTotalMb, usage.heapTotal / MB);
    this.#children.forEach((child, i) => {
      const rss = child.pid === undefined ? null : procMb(child.pid, 'VmRSS');
      if (rss !== null) peak.childrenMb[i] = Math.max(peak.childrenMb[i] ?? 0, rss);
    });
  }
}

/** The highest of `pick` over the phases whose name passes `which`. */
export function peakOf(report: MemoryReport, which: (phase: string) => boolean, pick: (p: PhasePeak) => number | null): number | null {
  const values = report.phases.filter((p) => which(p.phase)).map(pick).filter((v): v is number => v !== null);
  return values.length > 0 ? Math.max(...values) : null;
}
