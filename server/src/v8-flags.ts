import v8 from 'node:v8';

/**
 * No allocation-site pretenuring: V8 may judge that the objects made at a place in the code
 * live long, and from then on make them straight in the old generation. Under load, a request's
 * objects are often alive at the scavenge that samples them; once their sites are pretenured,
 * each dead answer in the old generation keeps its young objects alive through scavenges until
 * the next full collection. About one start in three fell into that mode and served a third
 * fewer requests for as long as it ran (docs/performance.md, the garbage collector's two modes).
 * The first import of main.ts, so it holds before the app's code first runs.
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring');
