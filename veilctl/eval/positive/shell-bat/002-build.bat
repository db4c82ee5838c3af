@echo off
REM build settings for reporting
set NEXTAUTH_SECRET=⟦SECRET|02c0495817d4f680162bfe6a2c90f5b6⟧
set DB_PASSWORD=⟦PASSWORD|Orange621!⟧
set "APP_KEY=⟦SECRET|base64:WNAumSTVsszYUWHCrVzs4U7zEMu50/kP1t0dUrJKszM=⟧"
call mvn -B deploy -DskipTests
