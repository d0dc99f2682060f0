import { stopTestPostgresAfterAll } from './test-database';

// Setup file of the server-pg project: the PostgreSQL a test file started goes with it.
stopTestPostgresAfterAll();
