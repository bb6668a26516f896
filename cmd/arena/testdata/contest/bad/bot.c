/* Does not compile. */
int main(void) { return missing_variable; }
