/**
 * Memorable job names, `adjective-noun` (for example `amber-falcon`): 64 × 64 = 4,096 pairs.
 * The store asks for another name while the owner already has one; after eight tries a
 * number is appended, so a name is always found.
 */
import { randomInt } from 'node:crypto';

const ADJECTIVES: readonly string[] = (
  'amber ancient autumn bold brave bright calm clever cobalt coral crimson crisp daring dawn deep ' +
  'eager early electric emerald fair fearless gentle gilded golden grand hidden hollow humble icy ' +
  'indigo ivory jade keen kind lively lucky lunar mellow misty noble north olive patient polar ' +
  'proud quiet rapid rustic sandy scarlet serene silent silver solar steady stormy swift tidal ' +
  'topaz velvet vivid wandering wild wise'
).split(' ');

const NOUNS: readonly string[] = (
  'albatross badger beacon bison canyon cedar comet condor coyote crane delta dolphin eagle ember ' +
  'falcon fjord forest fox glacier harbor hawk heron horizon ibex island jaguar kestrel lagoon ' +
  'lantern lark lynx maple meadow meteor falls nebula oak orca osprey otter owl panther pebble ' +
  'pine prairie puma quartz raven reef ridge river robin sparrow summit thunder tiger tundra ' +
  'valley walrus willow wolf wren yak zephyr'
).split(' ');

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)]!;

/** The `attempt`-th proposal for a new job's name (attempt 0 first). */
export function proposeJobName(attempt: number): string {
  const base = `${pick(ADJECTIVES)}-${pick(NOUNS)}`;
  return attempt < 8 ? base : `${base}-${randomInt(2, 10 ** Math.min(2 + Math.floor(attempt / 8), 9))}`;
}
