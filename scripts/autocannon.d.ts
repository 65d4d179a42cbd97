// The little of autocannon's API the import benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: { method: string; path: string }[];
  }
  interface Result {
    latency: { p50: number; p97_5: number; p99: number };
    requests: { total: number };
    errors: number;
    non2xx: number;
  }
  export default function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): unknown;
}
