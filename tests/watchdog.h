/* watchdog.h - aborts a test binary whose current case or input runs past
 * a time limit, naming it on stderr, so that a hang fails the suite instead
 * of stalling it.  Header-only, for the unit runner and the fuzz replay
 * driver; it measures nothing and is no benchmark. */
#ifndef HLO_WATCHDOG_H
#define HLO_WATCHDOG_H
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *watchdog_who, *watchdog_what;

static inline void watchdog_say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));   /* async-signal-safe */
	(void)r;
}

static inline void watchdog_fire(int sig)
{
	(void)sig;
	watchdog_say(watchdog_who);
	watchdog_say(": timeout (ran longer than the limit): ");
	watchdog_say(watchdog_what);
	watchdog_say("\n");
	abort();
}

/* Starts the clock of `what` (who: the binary, for the message). */
static inline void watchdog_arm(const char *who, const char *what, unsigned seconds)
{
	watchdog_who = who;
	watchdog_what = what;
	signal(SIGALRM, watchdog_fire);
	alarm(seconds);
}

static inline void watchdog_disarm(void)
{
	alarm(0);
}
#endif
