// The little of autocannon's API the import benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    headers?: Record<string, string>;
    requests?: { method: string; path: string }[];
  }
  interface Result {
    latency: { p50: number; p97_5: number; p99: number };
    requests: { total: number };
    errors: number;
    non2xx: number;
  }
  interface Instance {
    /** One per response: its status, bytes and time in ms. */
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  }
  export default function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
}
