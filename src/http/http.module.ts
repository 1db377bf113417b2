import { Module } from '@nestjs/common';
import { FilesController } from './files.controller';
import { HealthController } from './health.controller';

@Module({ controllers: [HealthController, FilesController] })
export class HttpModule {}
