// Just enough of java.util to reproduce the iteration orders that shape Kafka Streams'
// Topology#describe() text: HashMap/HashSet bucket order and TreeSet (red-black tree) order.
//
// Why emulate instead of sorting: InternalTopologyBuilder#describeSubtopology walks a HashMap of
// nodes and inserts successors/predecessors into TreeSets whose comparator reads subtree sizes
// *while they are still growing*. The printed `-->` / `<--` order therefore depends on the
// HashMap's iteration order and on the tree's shape at insertion time, not only on final sizes.

/** java.lang.String#hashCode (over UTF-16 code units, 32-bit wrap-around). */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * Table capacity of a java.util.HashMap after `size` puts.
 * - `incremental`: `new HashMap<>()` then put/add one by one (capacity 16, doubles past 0.75 load);
 * - `copy`: `new HashSet<>(collection)`, sized up front to max(size / .75 + 1, 16).
 */
export function javaHashCapacity(size: number, construction: 'incremental' | 'copy'): number {
  if (construction === 'copy') {
    const wanted = Math.max(Math.floor(size / 0.75) + 1, 16);
    let cap = 1;
    while (cap < wanted) cap *= 2;
    return cap;
  }
  let cap = 16;
  while (size > cap * 0.75) cap *= 2;
  return cap;
}

/**
 * Iteration order of a HashMap/HashSet holding `keys` (given in insertion order): by bucket
 * index, then insertion order within a bucket (resizes split buckets preserving that order).
 * Bins are treeified only past 8 colliding keys, which topology names do not reach.
 */
export function javaHashOrder(
  keys: readonly string[],
  construction: 'incremental' | 'copy',
): string[] {
  const mask = javaHashCapacity(keys.length, construction) - 1;
  const bucket = (k: string): number => {
    const h = javaStringHash(k);
    return (h ^ (h >>> 16)) & mask;
  };
  return keys
    .map((key, i) => ({ key, i, b: bucket(key) }))
    .sort((a, b) => a.b - b.b || a.i - b.i)
    .map((x) => x.key);
}

interface TreeEntry<T> {
  value: T;
  left: TreeEntry<T> | null;
  right: TreeEntry<T> | null;
  parent: TreeEntry<T> | null;
  black: boolean;
}

/**
 * java.util.TreeSet: a red-black tree (TreeMap's CLR algorithm). The comparator is evaluated at
 * insertion time, exactly as Java does, so elements whose sort keys change later keep the place
 * they were given.
 */
export class JavaTreeSet<T> {
  #root: TreeEntry<T> | null = null;
  #size = 0;
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  get size(): number {
    return this.#size;
  }

  add(value: T): boolean {
    if (this.#root === null) {
      this.#root = { value, left: null, right: null, parent: null, black: true };
      this.#size = 1;
      return true;
    }
    let t: TreeEntry<T> = this.#root;
    for (;;) {
      const cmp = this.#compare(value, t.value);
      if (cmp === 0) return false;
      const next: TreeEntry<T> | null = cmp < 0 ? t.left : t.right;
      if (next === null) {
        const e: TreeEntry<T> = { value, left: null, right: null, parent: t, black: false };
        if (cmp < 0) t.left = e;
        else t.right = e;
        this.#fixAfterInsertion(e);
        this.#size++;
        return true;
      }
      t = next;
    }
  }

  /** In-order values (Java's iteration order). */
  values(): T[] {
    const out: T[] = [];
    const walk = (e: TreeEntry<T> | null): void => {
      if (!e) return;
      walk(e.left);
      out.push(e.value);
      walk(e.right);
    };
    walk(this.#root);
    return out;
  }

  #fixAfterInsertion(x: TreeEntry<T> | null): void {
    const isRed = (e: TreeEntry<T> | null): boolean => e !== null && !e.black;
    while (x !== null && x !== this.#root && isRed(x.parent)) {
      const parent = x.parent as TreeEntry<T>;
      const grand = parent.parent as TreeEntry<T>;
      if (parent === grand.left) {
        const uncle = grand.right;
        if (isRed(uncle)) {
          parent.black = true;
          (uncle as TreeEntry<T>).black = true;
          grand.black = false;
          x = grand;
        } else {
          if (x === parent.right) {
            x = parent;
            this.#rotateLeft(x);
          }
          const p = x.parent as TreeEntry<T>;
          p.black = true;
          (p.parent as TreeEntry<T>).black = false;
          this.#rotateRight(p.parent);
        }
      } else {
        const uncle = grand.left;
        if (isRed(uncle)) {
          parent.black = true;
          (uncle as TreeEntry<T>).black = true;
          grand.black = false;
          x = grand;
        } else {
          if (x === parent.left) {
            x = parent;
            this.#rotateRight(x);
          }
          const p = x.parent as TreeEntry<T>;
          p.black = true;
          (p.parent as TreeEntry<T>).black = false;
          this.#rotateLeft(p.parent);
        }
      }
    }
    (this.#root as TreeEntry<T>).black = true;
  }

  #rotateLeft(p: TreeEntry<T> | null): void {
    if (!p || !p.right) return;
    const r = p.right;
    p.right = r.left;
    if (r.left) r.left.parent = p;
    r.parent = p.parent;
    if (!p.parent) this.#root = r;
    else if (p.parent.left === p) p.parent.left = r;
    else p.parent.right = r;
    r.left = p;
    p.parent = r;
  }

  #rotateRight(p: TreeEntry<T> | null): void {
    if (!p || !p.left) return;
    const l = p.left;
    p.left = l.right;
    if (l.right) l.right.parent = p;
    l.parent = p.parent;
    if (!p.parent) this.#root = l;
    else if (p.parent.right === p) p.parent.right = l;
    else p.parent.left = l;
    l.right = p;
    p.parent = l;
  }
}
