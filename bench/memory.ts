import { readFileSync } from 'node:fs';
import type { GatewayProcess } from './gateway-process.ts';

/**
 * Resident memory, sampled every 100 ms: the gateway's process (RSS from /proc, its V8 heap over
 * IPC) and each other process (this one, the sandbox, the load generator, the subscription clients),
 * with the peak of each phase.
 */

export interface PhasePeak {
  phase: string;
  /** The gateway's process, MB. */
  gatewayMb: number;
  /** Its V8 heap: the most in use, and the most reserved, MB. */
  heapUsedMb: number;
  heapTotalMb: number;
  /** Each other process's peak, MB, in the order given (null where /proc is not readable). */
  childrenMb: (number | null)[];
}

export interface MemoryReport {
  children: string[];
  phases: PhasePeak[];
  /** The kernel's own high-water mark of the gateway's process (VmHWM), a check on the sampling. */
  kernelPeakGatewayMb: number | null;
  samples: number;
}

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
  readonly #gateway: GatewayProcess;
  readonly #children: { name: string; pid: number | 'self' | undefined }[];
  readonly #phases: PhasePeak[] = [];
  #current: PhasePeak;
  #timer: NodeJS.Timeout | undefined;
  #samples = 0;
  /** The heap read over IPC still on its way: the next tick skips rather than queue another. */
  #heapPending = false;

  constructor(gateway: GatewayProcess, children: { name: string; pid: number | 'self' | undefined }[], firstPhase: string) {
    this.#gateway = gateway;
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

  async stop(): Promise<MemoryReport> {
    this.#sample();
    clearInterval(this.#timer);
    await this.#readHeap(this.#current);
    return {
      children: this.#children.map((c) => c.name),
      phases: this.#phases,
      kernelPeakGatewayMb: this.#gateway.pid === undefined ? null : procMb(this.#gateway.pid, 'VmHWM'),
      samples: this.#samples,
    };
  }

  #open(name: string): PhasePeak {
    const peak: PhasePeak = { phase: name, gatewayMb: 0, heapUsedMb: 0, heapTotalMb: 0, childrenMb: this.#children.map(() => null) };
    this.#phases.push(peak);
    return peak;
  }

  #sample(): void {
    this.#samples += 1;
    const peak = this.#current;
    const rss = this.#gateway.pid === undefined ? null : procMb(this.#gateway.pid, 'VmRSS');
    if (rss !== null) peak.gatewayMb = Math.max(peak.gatewayMb, rss);
    if (!this.#heapPending) void this.#readHeap(peak);
    this.#children.forEach((child, i) => {
      const childRss = child.pid === undefined ? null : procMb(child.pid, 'VmRSS');
      if (childRss !== null) peak.childrenMb[i] = Math.max(peak.childrenMb[i] ?? 0, childRss);
    });
  }

  async #readHeap(peak: PhasePeak): Promise<void> {
    this.#heapPending = true;
    try {
      const usage = await this.#gateway.memory();
      peak.gatewayMb = Math.max(peak.gatewayMb, usage.rssMb);
      peak.heapUsedMb = Math.max(peak.heapUsedMb, usage.heapUsedMb);
      peak.heapTotalMb = Math.max(peak.heapTotalMb, usage.heapTotalMb);
    } catch {
      // The gateway's process is gone (the run is ending): its last samples stand.
    } finally {
      this.#heapPending = false;
    }
  }
}

/** The kernel's high-water mark of a process's resident set (VmHWM), MB. */
export function peakRssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const found = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return found ? Number(found[1]) / 1024 : Number.NaN;
}
