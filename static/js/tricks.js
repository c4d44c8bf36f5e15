// The tricks one tap tells, as a pure rule (no page in it): the server fills in the form sent without
// JavaScript by the same rule (scorekeeper/web/domain/deals.py, fill_tricks), and both are tested on the same
// cases (tests/data/trick_fill.json). The correction of a count that no longer adds up depends on which hand
// was tapped when: that stays in deal.js, which blanks the hand to correct and fills it in here.

// `counts`: the visible hands' counts in seating order, a number, null for a blank, or anything else for
// a count that is not a number (the server keeps such text for the engine to name); `talon`: the talon's
// count on a raspasy with four, null for none. The counts add up to 10 (the talon's included):
// - one hand left blank gets 10 − the others, when that is a count (0 to 10);
// - several left blank get 0 each when the others (a hand given all 10) already make 10;
// otherwise, or when any count is not a number, the counts are returned as they are.
export function fillTricks(counts, talon = null) {
  const given = counts.filter((count) => count !== null);
  const blanks = counts.length - given.length;
  if (blanks === 0 || ![...given, talon ?? 0].every(Number.isInteger)) return [...counts];
  const left = given.reduce((rest, count) => rest - count, 10 - (talon ?? 0));
  const fill = blanks === 1 ? (left >= 0 && left <= 10 ? left : null) : (left === 0 ? 0 : null);
  return counts.map((count) => (count === null ? fill : count));
}
