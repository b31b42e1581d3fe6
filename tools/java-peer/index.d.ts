/** Builds the jar and its classpath (target/lib) when missing or older than the sources. */
export function ensurePeerBuilt(options?: { verbose?: boolean }): void;
/** The classpath of the peer's programs. */
export function peerClasspath(): string;
/**
 * Runs program `main` (a class of dev.streamwright.peer, e.g. 'CodecCheck') with `args`,
 * writing `input` to its stdin; resolves to its stdout.
 */
export function runPeer(
  main: string,
  options?: { args?: string[]; input?: string; jvmArgs?: string[] },
): Promise<string>;
