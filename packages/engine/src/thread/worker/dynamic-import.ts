// import() of a worker module, in a module of its own: the built worker runs its bundle as a script
// from V8's code cache (worker-entry.ts), where import() has no module loader behind it, so
// scripts/bundle-worker.mjs puts the entry's own import() in place of this module.
export function importModule(specifier: string): Promise<unknown> {
  return import(specifier);
}
