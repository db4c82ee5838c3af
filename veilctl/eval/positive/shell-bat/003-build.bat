@echo off
REM build settings for inventory
set TG_TOKEN=⟦SERVICE_TOKEN|2411292862:AAurvHkZzRKGx-83RtFp9DHNLYLjhqv42g8⟧
set DB_PASSWORD=⟦PASSWORD|a3xBdhEUIYuaiP⟧
set "SPRING_DATASOURCE_PASSWORD=⟦PASSWORD|a3xBdhEUIYuaiP⟧"
call mvn -B deploy -DskipTests
