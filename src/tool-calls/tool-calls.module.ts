import { Module } from '@nestjs/common';
import { ToolCallsResolver } from './tool-calls.resolver';

@Module({ providers: [ToolCallsResolver] })
export class ToolCallsModule {}
