/* secret.h: component a's own header (private comp/*). */
int a_secret(void);
