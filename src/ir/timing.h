/* timing.h - where a run's wall time goes, stage by stage (timing.c): with
 * HLO_TIMING=1 the pipeline's marks are summed per stage and printed to
 * stderr when the command ends (`make bench-scale` compares them at two
 * sizes).  Off, a mark is one branch.  It never changes any output. */
#ifndef HLO_TIMING_H
#define HLO_TIMING_H

/* Ends the calling thread's current stage, named stage: the time since its
 * previous mark (or since timing_start) is added to that stage's total.
 * Kept by address: a literal, or a name that outlives the run (a rule's);
 * rows are told apart by the text. */
void timing_mark(const char *stage);
/* Starts the clock of the calling thread (the driver, first thing). */
void timing_start(void);
/* Prints the totals, in the order the stages were first marked, then the
 * process's CPU time; nothing when HLO_TIMING is unset. */
void timing_report(void);
#endif
